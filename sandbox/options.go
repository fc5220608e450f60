package sandbox

import "time"

// Options are the limits of a run. The zero value of each field gives the
// contract's default; none of them is ever shown to the model.
type Options struct {
	// Budget is the script's own time: it counts only while the VM runs,
	// never while a nested call is in flight (default 60 s).
	Budget time.Duration
	// MaxCalls is how many nested calls a run may make, ToolSearch
	// included; calls beyond it are refused one by one (default 50).
	MaxCalls int
	// MaxLogChars cuts what print collects (default 8,000 characters).
	MaxLogChars int
	// MaxResultChars cuts the rendered return value (default 100,000
	// characters); Outcome.ResultChars keeps the full length.
	MaxResultChars int
	// MaxImages caps the images kept from nested calls (default 4).
	MaxImages int
	// MaxNestedWait, when positive, caps the total time spent waiting for
	// nested calls; past it the run ends (default: no cap).
	MaxNestedWait time.Duration
	// MaxScriptBytes bounds the script's source (default 256 KiB).
	MaxScriptBytes int
	// MaxStringBytes bounds any string the script builds (default 4 MiB).
	MaxStringBytes int
	// MaxMemory stops a run whose script holds more than this many bytes,
	// by an estimate of what it still reaches (default 256 MiB). In-process
	// it bounds what the script holds, not the process: garbage and the
	// collector's headroom come on top (docs/rough_edges.md); a worker's
	// whole memory is bounded by it.
	MaxMemory int
	// MaxCoroutines bounds the coroutines a run creates, parallel branches
	// included (default 2,000).
	MaxCoroutines int
}

// Defaults of Options, as the contract sets them.
const (
	DefaultBudget         = 60 * time.Second
	DefaultMaxCalls       = 50
	DefaultMaxLogChars    = 8000
	DefaultMaxResultChars = 100_000
	DefaultMaxImages      = 4
	DefaultMaxScriptBytes = 256 << 10
	DefaultMaxStringBytes = 4 << 20
	DefaultMaxCoroutines  = 2000
	DefaultMaxMemory      = 256 << 20
)

// minErrorChars is the least MaxErrorChars keeps.
const minErrorChars = 2000

// MaxErrorChars is how many characters of an error's message a run keeps
// (a script's error, whatever it raised; a crash's report): MaxResultChars,
// but never under 2,000, so that a small result limit leaves errors
// readable.
func (o *Options) MaxErrorChars() int {
	return max(o.withDefaults().MaxResultChars, minErrorChars)
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	setDefault(&out.Budget, DefaultBudget)
	setDefault(&out.MaxCalls, DefaultMaxCalls)
	setDefault(&out.MaxLogChars, DefaultMaxLogChars)
	setDefault(&out.MaxResultChars, DefaultMaxResultChars)
	setDefault(&out.MaxImages, DefaultMaxImages)
	setDefault(&out.MaxScriptBytes, DefaultMaxScriptBytes)
	setDefault(&out.MaxStringBytes, DefaultMaxStringBytes)
	setDefault(&out.MaxCoroutines, DefaultMaxCoroutines)
	setDefault(&out.MaxMemory, DefaultMaxMemory)
	return out
}

func setDefault[T int | time.Duration](field *T, def T) {
	if *field <= 0 {
		*field = def
	}
}
