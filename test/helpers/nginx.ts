import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, portOpen } from './free-port.ts'

/** Debian's nginx, which the load-balancer tests start; `.ci/run` installs it when missing. */
export const NGINX = '/usr/sbin/nginx'
/** The repository's load-balancer config, which docker-compose.yml mounts into the nginx image. */
export const NGINX_CONFIG = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url))

/**
 * Why the load-balancer tests are left out of this run, or undefined when they run: they run
 * wherever nginx is installed, and always under CI, where a missing one must fail them.
 */
export function nginxTestsSkipped(env: NodeJS.ProcessEnv = process.env, installed = existsSync(NGINX)): string | undefined {
  if (installed || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return undefined
  return `load-balancer tests skipped: no nginx at ${NGINX} (apt-get install -y nginx; with CI set they run, and fail without it)`
}

/** Where deploy/nginx.conf's text names its upstream servers and its listen port. */
interface Addresses {
  /** The upstream block's inside. */
  servers: string
  /** Each server's address (host:port), in order. */
  upstreams: string[]
  /** The listen line, and its port. */
  listenLine: string
  listen: number
}

/**
 * Reads only the shape deploy/nginx.conf has (one upstream block of `server host:port;` lines, one
 * `listen port;`) and throws on any other, so a rewrite of it fails the tests instead of being misread.
 */
export function addressesOf(config: string): Addresses {
  const upstream = [...config.matchAll(/^upstream \S+ \{\n([^}]*)\}/gm)]
  const listen = [...config.matchAll(/^\s*listen (\d+);$/gm)]
  if (upstream.length !== 1 || listen.length !== 1) throw new Error(`${NGINX_CONFIG}: expected one upstream block and one listen line`)
  const servers = upstream[0]![1]!
  const upstreams = [...servers.matchAll(/^\s*server (\S+);$/gm)].map((match) => match[1]!)
  if (upstreams.length === 0) throw new Error(`${NGINX_CONFIG}: the upstream block names no server`)
  return { servers, upstreams, listenLine: listen[0]![0], listen: Number(listen[0]![1]) }
}

/** `config` with its upstream servers replaced by `upstreams` (host:port each) and its listen port by 127.0.0.1:`port`. */
export function withAddresses(config: string, upstreams: readonly string[], port: number): string {
  const { servers, listenLine } = addressesOf(config)
  const ours = upstreams.map((address) => `    server ${address};\n`).join('')
  return config
    .replace(servers, () => ours + servers.replace(/^\s*server \S+;\n/gm, ''))
    .replace(listenLine, () => listenLine.replace(/listen \d+;/, `listen 127.0.0.1:${port};`))
}

export interface NginxOptions {
  /** Lines added to the http block, before the repository's config (e.g. an `add_header`). */
  http?: readonly string[]
  /** `worker_processes`: 1 unless said (`auto`: one per core). */
  workers?: number | 'auto'
}

export interface Nginx {
  readonly url: string
  /** The master process's id; its workers are its children. */
  readonly pid: number
  stop(): Promise<void>
}

/**
 * Debian's nginx with the repository's config in front of `upstreams`, on a free port of
 * 127.0.0.1: a foreground child (no daemon) whose pid file, logs and temporary files are in a
 * folder of its own, removed by `stop`.
 */
export async function startNginx(upstreams: readonly string[], options: NginxOptions = {}): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'novu-mock-nginx-'))
  // Run by root, nginx's workers run as nobody: they must reach the temporary folders in here.
  chmodSync(prefix, 0o755)
  const port = await freePort()
  writeFileSync(join(prefix, 'novu-mock.conf'), withAddresses(readFileSync(NGINX_CONFIG, 'utf8'), upstreams, port))
  writeFileSync(join(prefix, 'nginx.conf'), mainConfig(prefix, options))
  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += String(chunk)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // TERM: the master stops its workers, and streams still open, at once.
      child.kill('SIGTERM')
      await once(child, 'exit')
    }
    rmSync(prefix, { recursive: true, force: true })
  }
  try {
    await portOpen(port, () => child.exitCode !== null)
  } catch (error) {
    await stop()
    throw new Error(`nginx did not start: ${(error as Error).message}\n${stderr}`)
  }
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop }
}

/** The main context around the repository's config: in the foreground, everything it writes in `prefix`. */
function mainConfig(prefix: string, { http = [], workers = 1 }: NginxOptions): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(prefix, kind)};`)
  return [
    'daemon off;',
    `worker_processes ${workers};`,
    `pid ${join(prefix, 'nginx.pid')};`,
    'error_log stderr warn;',
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...temp,
    ...http.map((line) => `  ${line}`),
    `  include ${join(prefix, 'novu-mock.conf')};`,
    '}',
    '',
  ].join('\n')
}
