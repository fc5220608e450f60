//go:build unix

package gateway_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/execlua/execlua/host/serve"
)

// A client that stops reading its response is cut off once a write has
// waited WriteStall for it, rather than holding its connection for good.
// The response (an Exec result of 99,000 bytes) is far larger than the
// socket buffers, both set small: the server's write must wait.
func TestStalledClientIsCutOff(t *testing.T) {
	closed := make(chan string, 16)
	r := start(t, rigOptions{
		serve:    serve.Options{WriteStall: 50 * time.Millisecond},
		listener: func(ln net.Listener) net.Listener { return smallWrites{ln, closed} },
	})
	session := initSession(t, r.url)

	dialer := net.Dialer{Control: func(_, _ string, raw syscall.RawConn) error {
		var err error
		if cerr := raw.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); cerr != nil {
			return cerr
		}
		return err
	}}
	conn, err := dialer.Dial("tcp", strings.TrimPrefix(r.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Exec","arguments":{"code":"return string.rep('x', 99000)"}}}`
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nContent-Length: %d\r\n\r\n%s", session, len(body), body)

	// The server closes the connection without the client reading a byte.
	hang := time.After(time.Minute) // a guard against a hang only
	for addr := ""; addr != conn.LocalAddr().String(); {
		select {
		case addr = <-closed:
		case <-hang:
			t.Fatal("the server still waits for a client that stopped reading")
		}
	}
	conn.SetReadDeadline(time.Now().Add(time.Minute)) // a guard against a hang only
	got, _ := io.ReadAll(conn)
	if len(got) >= 99000 {
		t.Errorf("the client got the whole response (%d bytes) after the server gave up on it", len(got))
	}
}

// smallWrites is a listener whose connections have a small send buffer
// and tell closed their remote address when the server closes them.
type smallWrites struct {
	net.Listener
	closed chan<- string
}

func (l smallWrites) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tcp, ok := c.(*net.TCPConn); ok {
		if err := tcp.SetWriteBuffer(4096); err != nil {
			return nil, err
		}
	}
	return &reportsClose{Conn: c, closed: l.closed}, nil
}

type reportsClose struct {
	net.Conn
	closed chan<- string
}

func (c *reportsClose) Close() error {
	select {
	case c.closed <- c.RemoteAddr().String():
	default:
	}
	return c.Conn.Close()
}

// initSession initializes an MCP session over plain HTTP and returns its
// id.
func initSession(t *testing.T, url string) string {
	t.Helper()
	resp := post(t, url, nil, initBody)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
	}
	return id
}
