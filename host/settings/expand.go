package settings

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ErrMissingVariable is what an expansion of an unset ${VAR} without a
// default matches.
var ErrMissingVariable = errors.New("environment variable is not set")

// Expand returns c with ${VAR} and ${VAR:-default} replaced in Command,
// Args, Env values, Cwd, URL and Headers, reading variables through
// lookup (os.LookupEnv in a host). ${VAR:-default} takes the default when
// VAR is unset or empty; ${VAR} with VAR unset is an error naming every
// such variable. Other text, $VAR without braces included, is left as is.
func (c ServerConfig) Expand(lookup func(string) (string, bool)) (ServerConfig, error) {
	var missing []string
	ex := func(s string) string {
		out, miss := expand(s, lookup)
		missing = append(missing, miss...)
		return out
	}
	c.Command = ex(c.Command)
	c.Cwd = ex(c.Cwd)
	c.URL = ex(c.URL)
	c.Args = slices.Clone(c.Args)
	for i := range c.Args {
		c.Args[i] = ex(c.Args[i])
	}
	c.Env = maps.Clone(c.Env)
	for k, v := range c.Env {
		c.Env[k] = ex(v)
	}
	c.Headers = maps.Clone(c.Headers)
	for k, v := range c.Headers {
		c.Headers[k] = ex(v)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return c, fmt.Errorf("%w: %s", ErrMissingVariable, strings.Join(slices.Compact(missing), ", "))
	}
	return c, nil
}

// expand replaces the ${...} references of s and returns the names that
// were unset and had no default.
func expand(s string, lookup func(string) (string, bool)) (string, []string) {
	var b strings.Builder
	var missing []string
	for {
		start := strings.Index(s, "${")
		if start < 0 {
			break
		}
		end := strings.IndexByte(s[start:], '}')
		if end < 0 {
			break
		}
		b.WriteString(s[:start])
		ref := s[start+2 : start+end]
		name, def, hasDef := strings.Cut(ref, ":-")
		v, ok := lookup(name)
		switch {
		case hasDef && v == "":
			b.WriteString(def)
		case ok:
			b.WriteString(v)
		default:
			missing = append(missing, name)
		}
		s = s[start+end+1:]
	}
	b.WriteString(s)
	return b.String(), missing
}
