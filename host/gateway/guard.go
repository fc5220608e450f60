package gateway

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/execlua/execlua/host/serve"
)

// token is one accepted bearer token, kept as its digest: comparing
// digests of equal length in constant time says nothing of the token's
// length or content.
type token struct {
	digest [sha256.Size]byte
	// id names the client in logs and limits: the digest's first bytes,
	// never the token.
	id string
}

func newToken(secret string) token {
	d := sha256.Sum256([]byte(secret))
	return token{digest: d, id: "token:" + hex.EncodeToString(d[:4])}
}

// ReadTokens reads bearer tokens from a file: one a line; blank lines and
// lines starting with # are skipped. A file with none is an error.
func ReadTokens(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no token: expected one token a line", path)
	}
	return out, nil
}

// IsLoopback reports whether addr is a loopback address only (127.0.0.0/8,
// ::1), which no other machine can reach.
func IsLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// guard refuses what may not reach the MCP handler, in this order: a
// request through loopback whose Host is not a loopback name (DNS
// rebinding), an Origin not allowed, a missing or wrong token, a body
// too large or too slow. It hands the rest on with the client's name.
func (g *Gateway) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostAllowed(r) {
			g.refuse(w, r, http.StatusForbidden, fmt.Sprintf("Forbidden: Host %q is not a loopback name (DNS rebinding protection)", r.Host))
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !slices.Contains(g.origins, origin) {
			g.refuse(w, r, http.StatusForbidden, fmt.Sprintf("Forbidden: Origin %q is not allowed (see --allow-origin)", origin))
			return
		}
		id, ok := g.authenticate(w, r)
		if !ok {
			return
		}
		if r.Method == http.MethodPost && !g.readBody(w, r) {
			return
		}
		if id != "" {
			r = r.WithContext(serve.WithClient(r.Context(), id))
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed checks the Host of a request that came through a loopback
// address: a browser led there by a rebound name sends that name.
func (g *Gateway) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || !IsLoopback(local) {
		return true
	}
	name := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		name = h
	}
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(name, "[]"))
	return ip != nil && ip.IsLoopback()
}

// authenticate checks the bearer token when tokens are set, and returns
// the client's name ("" with no tokens).
func (g *Gateway) authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	if len(g.tokens) == 0 {
		return "", true
	}
	scheme, secret, found := strings.Cut(r.Header.Get("Authorization"), " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="execlua"`)
		g.refuse(w, r, http.StatusUnauthorized, "Unauthorized: send the token as Authorization: Bearer TOKEN")
		return "", false
	}
	d := sha256.Sum256([]byte(strings.TrimSpace(secret)))
	id := ""
	for _, t := range g.tokens { // every token is compared: the time says nothing of which matched
		if subtle.ConstantTimeCompare(d[:], t.digest[:]) == 1 {
			id = t.id
		}
	}
	if id == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="execlua", error="invalid_token"`)
		g.refuse(w, r, http.StatusUnauthorized, "Unauthorized: the token is not valid")
		return "", false
	}
	return id, true
}

// readBody reads a POST's body whole, within the size cap and the body
// timeout, and puts it back for the handler. The deadline is lifted once
// the body is in: the connection then stays open for as long as the run's
// response streams.
func (g *Gateway) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.ContentLength > g.opts.MaxBody {
		g.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request Entity Too Large: the body may be at most %d bytes", g.opts.MaxBody))
		return false
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(g.opts.BodyTimeout)) // not every writer has a connection (tests)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.opts.MaxBody))
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooLarge):
		g.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Request Entity Too Large: the body may be at most %d bytes", g.opts.MaxBody))
		return false
	case errors.As(err, &netErr) && netErr.Timeout():
		w.Header().Set("Connection", "close")
		g.refuse(w, r, http.StatusRequestTimeout, "Request Timeout: the body took too long to arrive")
		return false
	case err != nil:
		g.refuse(w, r, http.StatusBadRequest, "Bad Request: the body could not be read")
		return false
	}
	// On failure the deadline stays: the server's discarding of the rest
	// of the body must not wait for a client that sends nothing.
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// refuse answers a refused request and logs why.
func (g *Gateway) refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	g.opts.Logger.Warn("request refused", "status", status, "reason", why, "remote", r.RemoteAddr, "method", r.Method, "path", r.URL.Path)
	g.metrics.refused(status)
	http.Error(w, why, status)
}

// checkOrigins checks that each allowed origin is one, as browsers send
// it: scheme://host[:port], nothing more.
func checkOrigins(origins []string) error {
	for _, o := range origins {
		u, err := url.Parse(o)
		if err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			return fmt.Errorf("origin %q: expected scheme://host[:port], e.g. https://app.example.com", o)
		}
	}
	return nil
}
