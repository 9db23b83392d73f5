import { randomBytes } from 'node:crypto';

/**
 * A publisher's SDP offer as Chromium writes one (audio Opus + video VP8 with simulcast rids l/m/h,
 * ICE credentials, a DTLS fingerprint), for signalling tests against a real Janus: there is no
 * WebRTC stack in Node, so no media flows, but Janus parses, accepts and answers it like a browser's.
 */
export function publisherOffer(opts: { simulcast?: boolean } = {}): { type: 'offer'; sdp: string } {
  const ufrag = randomBytes(3).toString('hex');
  const pwd = randomBytes(12).toString('hex');
  const fingerprint = [...randomBytes(32)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  const ice = [
    `a=ice-ufrag:${ufrag}`,
    `a=ice-pwd:${pwd}`,
    'a=ice-options:trickle',
    `a=fingerprint:sha-256 ${fingerprint}`,
    'a=setup:actpass',
  ];
  const lines = [
    'v=0',
    `o=- ${BigInt(`0x${randomBytes(7).toString('hex')}`)} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=group:BUNDLE 0 1',
    'a=extmap-allow-mixed',
    'a=msid-semantic: WMS s',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    'a=rtcp:9 IN IP4 0.0.0.0',
    ...ice,
    'a=mid:0',
    'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
    'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
    'a=sendonly',
    'a=msid:s a0',
    'a=rtcp-mux',
    'a=rtpmap:111 opus/48000/2',
    'a=rtcp-fb:111 transport-cc',
    'a=fmtp:111 minptime=10;useinbandfec=1',
    'a=ssrc:11111111 cname:trainlab',
    'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
    'c=IN IP4 0.0.0.0',
    'a=rtcp:9 IN IP4 0.0.0.0',
    ...ice,
    'a=mid:1',
    'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
    'a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id',
    'a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id',
    'a=sendonly',
    'a=msid:s v0',
    'a=rtcp-mux',
    'a=rtcp-rsize',
    'a=rtpmap:96 VP8/90000',
    'a=rtcp-fb:96 goog-remb',
    'a=rtcp-fb:96 transport-cc',
    'a=rtcp-fb:96 ccm fir',
    'a=rtcp-fb:96 nack',
    'a=rtcp-fb:96 nack pli',
    'a=rtpmap:97 rtx/90000',
    'a=fmtp:97 apt=96',
    ...(opts.simulcast === false
      ? ['a=ssrc:22222222 cname:trainlab']
      : ['a=rid:l send', 'a=rid:m send', 'a=rid:h send', 'a=simulcast:send l;m;h']),
  ];
  return { type: 'offer', sdp: `${lines.join('\r\n')}\r\n` };
}

/** The page's answer to a subscriber offer: every m-line received, with our own ICE/DTLS lines. */
export function subscriberAnswer(offer: string): { type: 'answer'; sdp: string } {
  const ufrag = randomBytes(3).toString('hex');
  const pwd = randomBytes(12).toString('hex');
  const fingerprint = [...randomBytes(32)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  const out: string[] = [];
  for (const line of offer.split(/\r?\n/)) {
    if (!line) continue;
    if (line.startsWith('a=ice-ufrag:')) out.push(`a=ice-ufrag:${ufrag}`);
    else if (line.startsWith('a=ice-pwd:')) out.push(`a=ice-pwd:${pwd}`);
    else if (line.startsWith('a=fingerprint:')) out.push(`a=fingerprint:sha-256 ${fingerprint}`);
    else if (line.startsWith('a=setup:')) out.push('a=setup:active');
    else if (line === 'a=sendonly') out.push('a=recvonly');
    else if (
      line.startsWith('a=candidate:') ||
      line.startsWith('a=end-of-candidates') ||
      line.startsWith('a=ice-options')
    )
      continue;
    else out.push(line);
  }
  return { type: 'answer', sdp: `${out.join('\r\n')}\r\n` };
}
