#!/usr/bin/env node
// Runs the bundled CLI (npm run build; npm ci and npm pack build it via `prepare`).
await import('../dist/bundle/cli.js')
