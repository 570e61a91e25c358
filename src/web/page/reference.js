// The API reference: swagger-ui over this server's own document, with "Try it out" aimed at the
// origin the page came from (whatever host and port the mock listens on), not the document's
// default server.
const response = await fetch('/openapi.json')
const spec = await response.json()
spec.servers = [{ url: window.location.origin, description: 'This mock (where this page came from)' }]
// The Authorize dialog shows this: the header needs the scheme, and a bare key gets it below.
spec.components.securitySchemes.ApiKey.description =
  'Enter `ApiKey <key>`, any key: each key is its own tenant. A key typed alone gets the `ApiKey ` prefix.'

/** `Authorization: my-key` as typed in the dialog becomes `ApiKey my-key`; any value with a scheme is sent as is. */
function withScheme(request) {
  const value = request.headers.Authorization
  const typed = typeof value === 'string' ? value.trim() : ''
  if (typed !== '' && typed !== 'ApiKey' && !/\s/.test(typed)) request.headers.Authorization = `ApiKey ${typed}`
  return request
}

window.SwaggerUIBundle({
  spec,
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  requestInterceptor: withScheme,
  // The default validator badge calls validator.swagger.io; nothing may leave the machine.
  validatorUrl: null,
})
