import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { Express, RequestHandler, Response } from 'express'
import { setPageHeaders } from '../http/page-headers.ts'
import { packagePath } from '../lib/package-path.ts'

/** The page is not compiled: served from the sources' folder, also when the code runs from dist/. */
const PAGE_DIR = packagePath('src/web/page/')
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
/** Only what the page loads: swagger-ui-dist also ships a demo page that points at a remote petstore. */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']

/**
 * The API reference at `/docs` (swagger-ui, served from node_modules), and the document itself at
 * `/openapi.yaml` (as written) and `/openapi.json` (the same document, not dereferenced). Public,
 * read-only, outside the API's authentication and the admin guard, in every mode.
 */
export function mountReference(app: Express, documentFile: string): void {
  app.get('/openapi.yaml', documentRoute(documentFile, 'application/yaml; charset=utf-8', 'yaml'))
  app.get('/openapi.json', documentRoute(documentFile, 'application/json; charset=utf-8', 'json'))
  app.get('/docs', pageFile(PAGE_DIR, 'index.html'))
  app.get('/docs/reference.js', pageFile(PAGE_DIR, 'reference.js'))
  for (const file of SWAGGER_UI_FILES) app.get(`/docs/swagger-ui/${file}`, pageFile(SWAGGER_UI_DIR, file))
}

const texts = new Map<string, Promise<{ yaml: string; json: string }>>()

/**
 * Read and converted on first request, once per process: every app serves the same files, and
 * start-up does not load the parser for a page most runs never open.
 */
function documentTexts(file: string): Promise<{ yaml: string; json: string }> {
  let loaded = texts.get(file)
  if (!loaded) {
    loaded = Promise.all([readFile(file, 'utf8'), import('../contract/load-document.ts')]).then(async ([yaml, { parseDocument }]) => {
      return { yaml, json: JSON.stringify(await parseDocument(file)) }
    })
    texts.set(file, loaded)
  }
  return loaded
}

function documentRoute(file: string, type: string, form: 'yaml' | 'json'): RequestHandler {
  return (_req, res, next) => {
    documentTexts(file).then((text) => sendDocument(res, type, text[form]), next)
  }
}

/** swagger-ui sets style attributes as it renders, so this page needs inline styles allowed. */
function pageFile(root: string, file: string): RequestHandler {
  return (_req, res) => {
    setPageHeaders(res, { inlineStyles: true })
    res.sendFile(file, { root })
  }
}

function sendDocument(res: Response, type: string, text: string): void {
  res.setHeader('Content-Type', type)
  // Public and read-only: other tools' pages (an editor, a linter) may fetch it too.
  res.setHeader('Access-Control-Allow-Origin', '*')
  res.setHeader('Cache-Control', 'no-cache')
  res.end(text)
}
