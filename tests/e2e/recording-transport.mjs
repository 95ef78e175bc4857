// Wraps a transport and records every message in both directions (for protocol-level checks
// the SDK does not expose, such as the negotiated protocolVersion).
export class RecordingTransport {
  constructor(inner) {
    this.inner = inner;
    this.received = [];
    this.sent = [];
  }

  async start() {
    this.inner.onmessage = (message, extra) => {
      this.received.push(message);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message, options) {
    this.sent.push(message);
    return this.inner.send(message, options);
  }

  close() {
    return this.inner.close();
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  setProtocolVersion(version) {
    this.inner.setProtocolVersion?.(version);
  }
}
