package gateway

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/execlua/execlua"
	"github.com/execlua/execlua/host"
	"github.com/execlua/execlua/host/hooks"
	"github.com/execlua/execlua/host/permission"
	"github.com/execlua/execlua/host/serve"
)

// ServerState is one MCP server as the metrics report it.
type ServerState struct {
	Name string
	// State is the server's state ("ready", "restarting", ...).
	State string
	// Restarts counts the times the host started it again.
	Restarts int
}

// MetricsOptions say where the metrics read what they do not count
// themselves; nil functions leave their metrics out.
type MetricsOptions struct {
	// Servers gives the MCP servers' states at each scrape.
	Servers func() []ServerState
	// Workers gives the worker processes, live (idle ones included) and
	// idle, at each scrape.
	Workers func() (live, idle int)
}

// Metrics counts what a gateway does, in a registry of its own (never the
// process's global one), served in Prometheus' text format. It is a
// serve.Observer: give it to serve.Options.Observers, and to
// Options.Metrics. A nil *Metrics counts nothing.
type Metrics struct {
	reg          *prometheus.Registry
	runs         *prometheus.CounterVec
	calls        *prometheus.CounterVec
	errors       *prometheus.CounterVec
	runSeconds   prometheus.Histogram
	callSeconds  prometheus.Histogram
	refusedHTTP  *prometheus.CounterVec
	serverStates *prometheus.Desc
	restarts     *prometheus.Desc
	workers      *prometheus.Desc
	opts         MetricsOptions
}

// NewMetrics returns the gateway's metrics, with the Go runtime's and the
// process's.
func NewMetrics(opts *MetricsOptions) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	if opts != nil {
		m.opts = *opts
	}
	m.runs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "execlua_exec_runs_total", Help: "Exec calls answered, by outcome (ok, error)."}, []string{"outcome"})
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "execlua_tool_calls_total", Help: "Calls through the host's funnel (nested and flat), by outcome (ok, error, refused) and who decided (rule, mode, hook, user)."}, []string{"outcome", "decided_by"})
	m.errors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "execlua_errors_total", Help: "Failed Exec calls and tool calls, by kind."}, []string{"kind"})
	m.runSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "execlua_exec_duration_seconds", Help: "Time to answer an Exec call.", Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)})
	m.callSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "execlua_tool_call_duration_seconds", Help: "Time of a call through the host's funnel.", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10)})
	m.refusedHTTP = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "execlua_http_refused_total", Help: "HTTP requests refused before MCP, by status."}, []string{"status"})
	m.serverStates = prometheus.NewDesc("execlua_server_state", "1 for each MCP server's current state.", []string{"server", "state"}, nil)
	m.restarts = prometheus.NewDesc("execlua_server_restarts_total", "Times the host started an MCP server again.", []string{"server"}, nil)
	m.workers = prometheus.NewDesc("execlua_workers", "Worker processes, live (idle included) and idle.", []string{"state"}, nil)
	m.reg.MustRegister(m.runs, m.calls, m.errors, m.runSeconds, m.callSeconds, m.refusedHTTP, (*scraped)(m),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Run counts an Exec call (serve.Observer).
func (m *Metrics) Run(rec serve.RunRecord) {
	if m == nil {
		return
	}
	m.runSeconds.Observe(rec.Duration.Seconds())
	if rec.Result.IsError {
		m.runs.WithLabelValues("error").Inc()
		m.errors.WithLabelValues(ErrorKind(rec.Result.Err)).Inc()
		return
	}
	m.runs.WithLabelValues("ok").Inc()
}

// Call counts a call through the funnel (serve.Observer).
func (m *Metrics) Call(_ serve.Client, rec host.CallRecord) {
	if m == nil {
		return
	}
	m.callSeconds.Observe(rec.Duration.Seconds())
	outcome := "ok"
	switch {
	case rec.Err != nil && !rec.Decision.Allowed:
		outcome = "refused"
	case rec.Err != nil:
		outcome = "error"
	}
	if rec.Err != nil {
		m.errors.WithLabelValues(ErrorKind(rec.Err)).Inc()
	}
	m.calls.WithLabelValues(outcome, rec.Decision.By).Inc()
}

func (m *Metrics) refused(status int) {
	if m != nil {
		m.refusedHTTP.WithLabelValues(strconv.Itoa(status)).Inc()
	}
}

// watch adds the gauges read off the server at each scrape.
func (m *Metrics) watch(srv *serve.Server) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "execlua_exec_runs_in_flight", Help: "Exec runs in flight."},
		func() float64 { return float64(srv.Running()) }))
}

func (m *Metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// scraped collects the metrics read at each scrape: server states,
// restarts, workers.
type scraped Metrics

func (s *scraped) Describe(ch chan<- *prometheus.Desc) {
	ch <- s.serverStates
	ch <- s.restarts
	ch <- s.workers
}

func (s *scraped) Collect(ch chan<- prometheus.Metric) {
	if s.opts.Servers != nil {
		for _, st := range s.opts.Servers() {
			ch <- prometheus.MustNewConstMetric(s.serverStates, prometheus.GaugeValue, 1, st.Name, st.State)
			ch <- prometheus.MustNewConstMetric(s.restarts, prometheus.CounterValue, float64(st.Restarts), st.Name)
		}
	}
	if s.opts.Workers != nil {
		live, idle := s.opts.Workers()
		ch <- prometheus.MustNewConstMetric(s.workers, prometheus.GaugeValue, float64(live), "live")
		ch <- prometheus.MustNewConstMetric(s.workers, prometheus.GaugeValue, float64(idle), "idle")
	}
}

// errorKinds name the errors the metrics and the audit log count, most
// specific first.
var errorKinds = []struct {
	err  error
	kind string
}{
	{serve.ErrBusy, "busy"},
	{serve.ErrShuttingDown, "shutting_down"},
	{serve.ErrNoToolsYet, "no_tools_yet"},
	{permission.ErrDenied, "denied"},
	{hooks.ErrBlocked, "blocked"},
	{execlua.ErrInvalidInput, "invalid_input"},
	{execlua.ErrUnavailable, "unavailable"},
	{execlua.ErrBudgetExceeded, "budget"},
	{execlua.ErrNestedWaitExceeded, "nested_wait"},
	{execlua.ErrMemoryExceeded, "memory"},
	{execlua.ErrCallLimit, "call_limit"},
	{execlua.ErrCanceled, "canceled"},
	{execlua.ErrCrashed, "crashed"},
	{execlua.ErrUnknownTool, "unknown_tool"},
	{host.ErrUnknownTool, "unknown_tool"},
	{host.ErrInvalidArguments, "invalid_arguments"},
	{execlua.ErrScript, "script"},
}

// ErrorKind names the kind of a run's or a call's error: "busy",
// "denied", "budget", "script", ...; "tool" for any other (a server's or
// a transport's failure); "" for nil.
func ErrorKind(err error) string {
	if err == nil {
		return ""
	}
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			return k.kind
		}
	}
	return "tool"
}
