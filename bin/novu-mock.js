#!/usr/bin/env node
// Runs the compiled sources (npm run build; npm ci and npm pack build them via `prepare`).
await import('../dist/src/cli.js')
