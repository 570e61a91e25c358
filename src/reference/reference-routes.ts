import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import SwaggerParser from '@apidevtools/swagger-parser'
import type { Express, RequestHandler, Response } from 'express'
import { setPageHeaders } from '../http/page-headers.ts'

const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url))
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
/** Only what the page loads: swagger-ui-dist also ships a demo page that points at a remote petstore. */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']

/**
 * The API reference at `/docs` (swagger-ui, served from node_modules), and the document itself at
 * `/openapi.yaml` (as written) and `/openapi.json` (the same document, not dereferenced). Public,
 * read-only, outside the API's authentication and the admin guard, in every mode.
 */
export async function mountReference(app: Express, documentFile: string): Promise<void> {
  const { yaml, json } = await documentTexts(documentFile)
  app.get('/openapi.yaml', (_req, res) => sendDocument(res, 'application/yaml; charset=utf-8', yaml))
  app.get('/openapi.json', (_req, res) => sendDocument(res, 'application/json; charset=utf-8', json))
  app.get('/docs', pageFile(PAGE_DIR, 'index.html'))
  app.get('/docs/reference.js', pageFile(PAGE_DIR, 'reference.js'))
  for (const file of SWAGGER_UI_FILES) app.get(`/docs/swagger-ui/${file}`, pageFile(SWAGGER_UI_DIR, file))
}

const texts = new Map<string, Promise<{ yaml: string; json: string }>>()

/** Read and converted once per process, like the contracts: every app serves the same files. */
function documentTexts(file: string): Promise<{ yaml: string; json: string }> {
  let loaded = texts.get(file)
  if (!loaded) {
    // parse, not dereference: the JSON stays the document as written, $refs and all.
    loaded = Promise.all([readFile(file, 'utf8'), SwaggerParser.parse(file)]).then(([yaml, document]) => ({ yaml, json: JSON.stringify(document) }))
    texts.set(file, loaded)
  }
  return loaded
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
