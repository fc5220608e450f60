// Package gateway serves a serve.Server over HTTP for clients the user
// does not control, secure and observable by default.
//
// The model: a Gateway is the HTTP edge in front of the MCP handler. Every
// request passes its guard first, which refuses (and logs, and counts):
//
//   - on a loopback connection, a Host that is not a loopback name: a
//     browser led there by a rebound DNS name (403);
//   - an Origin header not in Options.AllowedOrigins (none by default), so
//     a web page the user visits cannot drive the gateway (403);
//   - with Options.Tokens set, a missing or wrong bearer token (401 with
//     WWW-Authenticate). Tokens are compared as SHA-256 digests in
//     constant time, and each names its client (token:1a2b3c4d, the
//     digest's first bytes) in logs, metrics, the audit log and the
//     per-client run cap. Serve refuses a listener other machines can
//     reach when no token is set (ErrNeedsToken);
//   - a body over Options.MaxBody (413), or one that takes longer than
//     BodyTimeout to arrive (408).
//
// The http.Server bounds the reading of a request's header and closes
// idle connections; it sets no write timeout, since an Exec call's
// response streams progress for as long as its run lasts, and the run has
// limits of its own. Each write has its own deadline instead (package
// serve): a client that stops reading loses its connection. Runs in flight are capped per client and in all by
// serve.Options; past a cap the client is answered with an error result.
//
// Routes: /mcp (streamable HTTP), /healthz (JSON: status, runs in flight,
// and the server states Options.Status gives; 503 once shutting down) and
// /metrics (Prometheus text format, from a registry of the gateway's own).
// All sit behind the guard.
//
// Observability comes as serve.Observers: Metrics counts runs, calls,
// errors by kind and latencies; Audit writes a JSON line per Exec call and
// per call through the host's funnel; Log logs them through log/slog.
//
// Shutdown drains: new Exec calls are told the server is shutting down,
// runs in flight may finish within the caller's grace period and are then
// cancelled with a result that says so, listening streams end, and the
// connections close.
package gateway
