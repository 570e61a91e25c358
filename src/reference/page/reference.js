// The API reference: swagger-ui over this server's own document, with "Try it out" aimed at the
// origin the page came from (whatever host and port the mock listens on), not the document's
// default server.
const response = await fetch('/openapi.json')
const spec = await response.json()
spec.servers = [{ url: window.location.origin, description: 'This mock (where this page came from)' }]

window.SwaggerUIBundle({
  spec,
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  // The default validator badge calls validator.swagger.io; nothing may leave the machine.
  validatorUrl: null,
})
