#!/bin/sh
# Writes Janus's configuration from the environment (as scripts/janus-local.mjs does for the tests:
# the VideoRoom plugin and the WebSocket transport only), then runs Janus in the foreground.
#   JANUS_ADMIN_SECRET  the VideoRoom admin_key: TrainLab's JANUS_ADMIN_SECRET (required)
#   JANUS_API_SECRET    optional API secret: TrainLab's JANUS_API_SECRET
#   JANUS_RTP_PORTS     the UDP range for media (default 20000-20099; publish the same range)
#   JANUS_PUBLIC_IP     the address browsers reach the media ports at (nat_1_1_mapping)
set -eu
: "${JANUS_ADMIN_SECRET:?JANUS_ADMIN_SECRET is required}"
dir=/var/lib/janus/config
lib=$(ls -d /usr/lib/*/janus 2>/dev/null | head -n1)
mkdir -p "$dir/plugins" "$dir/transports" "$dir/none"
ln -sf "$lib/plugins/libjanus_videoroom.so" "$dir/plugins/"
ln -sf "$lib/transports/libjanus_websockets.so" "$dir/transports/"
cat >"$dir/janus.jcfg" <<CFG
general: {
  configs_folder = "$dir"
  plugins_folder = "$dir/plugins"
  transports_folder = "$dir/transports"
  events_folder = "$dir/none"
  loggers_folder = "$dir/none"
  debug_level = 4
  ${JANUS_API_SECRET:+api_secret = "$JANUS_API_SECRET"}
  protected_folders = ["/bin", "/boot", "/dev", "/etc", "/lib", "/proc", "/sbin", "/sys", "/usr", "/var/lib/janus/config"]
}
media: {
  rtp_port_range = "${JANUS_RTP_PORTS:-20000-20099}"
}
nat: {
  nice_debug = false
  ${JANUS_PUBLIC_IP:+nat_1_1_mapping = "$JANUS_PUBLIC_IP"}
}
plugins: {}
transports: {}
events: {}
loggers: {}
CFG
cat >"$dir/janus.plugin.videoroom.jcfg" <<CFG
general: {
  admin_key = "$JANUS_ADMIN_SECRET"
  lock_rtp_forward = true
}
CFG
cat >"$dir/janus.transport.websockets.jcfg" <<CFG
general: {
  json = "compact"
  ws = true
  ws_port = 8188
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
CFG
# its log on stdout, without colours: docker logs shows it
exec /usr/bin/janus -F "$dir" -C "$dir/janus.jcfg" -o
