# novu-mock from its own npm package: the image runs what `npx novu-mock` runs, nothing of the dev tree,
# on exactly the dependency versions package-lock.json pins.
# test/packaging/pack.test.ts reads ENV, ENTRYPOINT, CMD, HEALTHCHECK and the runtime stage's install from
# this file and runs them against the packed package, so keep the commands in exec (JSON) form.

# Build stage: the dev dependencies compile the sources; `npm pack` keeps only what the package's `files` list.
FROM node:20-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts off: the build runs once, inside `npm pack` (prepack empties dist/, prepare builds it).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp \
 && mkdir /package && tar -xzf /tmp/novu-mock-*.tgz -C /package --strip-components=1

# Runtime stage: the package's files, and its runtime dependencies as the lockfile pins them.
FROM node:20-slim
WORKDIR /opt/novu-mock
COPY --from=pack /package/ ./
COPY package-lock.json ./
# npm ci installs the lockfile's versions or fails; scripts are off, which also keeps swagger-ui-dist's
# telemetry hook from running. The one native module, better-sqlite3 (for --db), is then installed on its
# own: prebuild-install fetches its prebuilt binary. Where that cannot be had, the image still builds, and
# --db says in one line what is missing.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && (npm rebuild better-sqlite3 || echo 'novu-mock: better-sqlite3 not installed; --db is unavailable in this image') \
 && rm -rf /root/.npm \
 && ln -s /opt/novu-mock/bin/novu-mock.js /usr/local/bin/novu-mock \
 && mkdir /data && chown node:node /data
# Bound to every interface so the published port reaches it. /__admin (but health) stays closed on this
# non-loopback host unless NOVU_MOCK_ADMIN_TOKEN is set at run time and sent as x-admin-token.
ENV NOVU_MOCK_HOST=0.0.0.0 NOVU_MOCK_PORT=4010
# The working folder, owned by the unprivileged user: ./novu-mock.config.json is read from here, and a
# relative --db / NOVU_MOCK_DB file is written here (mount a volume on /data to keep it).
WORKDIR /data
USER node
EXPOSE 4010
# slim has no curl; node's fetch does it. Health is open on every host, so no admin token is needed.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.NOVU_MOCK_PORT || 4010) + '/__admin/health').then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and the CLI stops cleanly on SIGTERM. Arguments after the image name replace `start`.
ENTRYPOINT ["novu-mock"]
CMD ["start"]
