package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ErrNoFile is AllowAlways with no local, project or user file configured.
var ErrNoFile = errors.New("no settings file to save the rule in")

// AllowAlways adds rule to permissions.allow of the most specific settings
// file configured (local, else project, else user), creating the file if
// need be, and reloads it. Every other key and value of the file is kept,
// in its order; values are re-indented. The file is written to a temporary
// file in the same directory and renamed over the old one, so a reader
// never sees half a file. A file that does not parse is left alone and the
// error says so. It returns the file written.
func (s *Store) AllowAlways(rule string) (string, error) {
	var path string
	for _, p := range []string{s.paths.Local, s.paths.Project, s.paths.User} {
		if p != "" {
			path = p
			break
		}
	}
	if path == "" {
		return "", ErrNoFile
	}
	s.notify.Lock() // one writer at a time; OnChange waits for it
	err := addAllowRule(path, rule)
	s.notify.Unlock()
	if err != nil {
		return path, err
	}
	s.Reload(path)
	return path, nil
}

// addAllowRule rewrites path with rule added to permissions.allow.
func addAllowRule(path, rule string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return &FileError{Path: path, Err: err}
	}
	if _, err := Parse(path, data); err != nil {
		return err
	}
	top, err := members(data)
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	perms, err := members(top.get("permissions"))
	if err != nil {
		return &FileError{Path: path, Err: fmt.Errorf("permissions: %w", err)}
	}
	var allow []string
	if raw := perms.get("allow"); raw != nil {
		if err := json.Unmarshal(raw, &allow); err != nil {
			return &FileError{Path: path, Err: fmt.Errorf("permissions.allow: %w", err)}
		}
	}
	if slices.Contains(allow, rule) {
		return nil
	}
	allow = append(allow, rule)
	raw, _ := json.Marshal(allow)
	perms.set("allow", raw)
	top.set("permissions", perms.encode())

	var out bytes.Buffer
	if err := json.Indent(&out, top.encode(), "", "  "); err != nil {
		return &FileError{Path: path, Err: err}
	}
	out.WriteByte('\n')
	return writeAtomic(path, out.Bytes())
}

// writeAtomic writes data to a temporary file next to path and renames it
// over path, keeping path's permission bits.
func writeAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// object is a JSON object's members in their order, values verbatim.
type object []member

type member struct {
	key string
	val json.RawMessage
}

// members splits a JSON object into its members; empty input is an empty
// object.
func members(data []byte) (object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, errors.New("expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out object
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		out.set(key, val)
	}
	return out, nil
}

func (o object) get(key string) json.RawMessage {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// set replaces key's value, or appends key; a repeated key keeps its first
// place and its last value, as encoding/json reads it.
func (o *object) set(key string, val json.RawMessage) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].val = val
			return
		}
	}
	*o = append(*o, member{key, val})
}

func (o object) encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}
