# TrainLab's production image. Build it with `npm run image` (scripts/image.mjs): that script
# assembles the context (the built web app and server, their production packages, and the npm
# registry's Node.js binary) and passes the base:
#   - here, with no image registry: trainlab-base:bookworm-1, Debian bookworm made by debootstrap
#     with the packages below already in it;
#   - elsewhere: `npm run image -- --base debian:bookworm-slim` (the packages below are installed
#     from Debian then).
# docs/operations.md, "Deploying with the image", says how to run it.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

# ffprobe/ffmpeg (course videos), janus-pp-rec (conference recordings), tini (PID 1: signals and
# zombies), CA certificates (mail, S3, SSO, payment gateways); one account that owns the data only.
RUN set -eu; \
    if ! command -v ffprobe >/dev/null || ! command -v janus-pp-rec >/dev/null || ! command -v tini >/dev/null; then \
      apt-get update; \
      apt-get install -y --no-install-recommends ca-certificates ffmpeg janus-tools tini; \
      rm -rf /var/lib/apt/lists/*; \
    fi; \
    groupadd --system --gid 10001 trainlab; \
    useradd --system --uid 10001 --gid trainlab --home-dir /var/lib/trainlab --shell /usr/sbin/nologin trainlab; \
    install -d -o trainlab -g trainlab -m 0700 /var/lib/trainlab

COPY node /usr/local/bin/node
COPY app /opt/trainlab

# production: listens on 0.0.0.0, refuses the unsafe settings (docs/operations.md, "Before going live")
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/var/lib/trainlab
WORKDIR /opt/trainlab
USER trainlab:trainlab
VOLUME ["/var/lib/trainlab"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/server/dist/main.js"]
