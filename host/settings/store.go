package settings

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options configure a Store. The zero value (and nil) reads only the
// settings files, calls nobody on changes, and supplies no managed layer
// from code.
type Options struct {
	// MCPConfig is an .mcp.json file; "" for none.
	MCPConfig string
	// Managed, when set, is the managed layer given from code (rules,
	// hooks and switches a Go host sets); it replaces Paths.Managed.
	Managed *File
	// Remote is the old name of Managed.
	//
	// Deprecated: use Managed.
	Remote *File
	// OnChange is called with the new settings after every reload that
	// changed them, one call at a time.
	OnChange func(*Settings)
	// OnError is called with a *FileError whenever a file fails to load;
	// the file keeps its last good contents.
	OnError func(error)
	// OnWarning is called with an *UnknownKeyError for every key of a
	// file that no known settings key matches, each time the file is read.
	OnWarning func(error)
	// Debounce is how long a watched file must stay quiet before it is
	// read again, so that a file written in several steps is read once,
	// whole (default 50 ms).
	Debounce time.Duration
}

// DefaultDebounce is Options.Debounce's default.
const DefaultDebounce = 50 * time.Millisecond

// Store holds the last good contents of every settings file.
type Store struct {
	paths Paths
	opts  Options

	mu      sync.Mutex // guards the fields below
	files   map[string]File
	errs    map[string]error
	managed *File
	cur     *Settings
	watcher *fsnotify.Watcher
	closed  bool

	notify sync.Mutex // one OnChange at a time, in order
}

// Open reads every file once. A file that is missing is an empty layer; one
// that does not parse is reported (Options.OnError, Errors) and read as
// empty until it is fixed.
func Open(paths Paths, opts *Options) *Store {
	s := &Store{paths: paths, files: map[string]File{}, errs: map[string]error{}}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Managed == nil {
		s.opts.Managed = s.opts.Remote
	}
	s.managed = s.opts.Managed
	if s.opts.Debounce <= 0 {
		s.opts.Debounce = DefaultDebounce
	}
	for _, p := range s.watched() {
		s.load(p)
	}
	s.mu.Lock()
	s.cur = s.build()
	s.mu.Unlock()
	return s
}

// watched are the files the store reads.
func (s *Store) watched() []string {
	var out []string
	for sc := User; sc < numScopes; sc++ {
		if p := s.paths.of(sc); p != "" && (sc != Managed || s.opts.Managed == nil) {
			out = append(out, p)
		}
	}
	if s.opts.MCPConfig != "" {
		out = append(out, s.opts.MCPConfig)
	}
	return out
}

// load reads one file into the store, keeping the last good contents on
// failure. It reports whether the contents changed.
func (s *Store) load(path string) bool {
	f, data, err := readFile(path)
	if err == nil && path != s.opts.MCPConfig && s.opts.OnWarning != nil {
		for _, w := range UnknownKeys(path, data) {
			s.opts.OnWarning(w)
		}
	}
	if err != nil {
		s.mu.Lock()
		s.errs[path] = err
		s.mu.Unlock()
		if s.opts.OnError != nil {
			s.opts.OnError(err)
		}
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.errs, path)
	old, had := s.files[path]
	s.files[path] = f
	return !had || !reflect.DeepEqual(old, f)
}

// build merges the files as they are now; s.mu is held.
func (s *Store) build() *Settings {
	st := &Settings{paths: s.paths}
	for sc := User; sc < numScopes; sc++ {
		if p := s.paths.of(sc); p != "" {
			st.layers[sc] = s.files[p]
		}
	}
	if s.managed != nil {
		st.layers[Managed] = *s.managed
		st.fromCode = true
	}
	if s.opts.MCPConfig != "" {
		st.mcpJSON = s.files[s.opts.MCPConfig].MCPServers
	}
	return st
}

// Current returns the settings as last read.
func (s *Store) Current() *Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Errors returns the current error of every file that failed to load, in
// no particular order.
func (s *Store) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []error
	for _, err := range s.errs {
		out = append(out, err)
	}
	return out
}

// SetManaged replaces the managed layer with settings given from code
// (FLAG-4, POOL-12) and reports the change.
func (s *Store) SetManaged(f File) {
	s.mu.Lock()
	s.managed = &f
	s.mu.Unlock()
	s.rebuild()
}

// SetRemote is the old name of SetManaged.
//
// Deprecated: use SetManaged.
func (s *Store) SetRemote(f File) { s.SetManaged(f) }

// Reload reads the given files again (every file when none is given) and
// reports a change.
func (s *Store) Reload(paths ...string) {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	if len(paths) == 0 {
		paths = s.watched()
	}
	changed := false
	for _, p := range paths {
		changed = s.load(p) || changed
	}
	if changed {
		s.rebuild()
	}
}

func (s *Store) rebuild() {
	s.notify.Lock()
	defer s.notify.Unlock()
	s.mu.Lock()
	s.cur = s.build()
	cur := s.cur
	s.mu.Unlock()
	if s.opts.OnChange != nil {
		s.opts.OnChange(cur)
	}
}

// Watch starts reloading files when they change on disk (FLAG-5, POOL-12).
// It watches the directories that hold the files, so a file created,
// replaced by a rename or removed is seen too. A directory that does not
// exist (~/.claude before its first use) is normal: the nearest of its
// ancestors that exists is watched instead, and the watch moves down as
// the directories on the way are created. Close stops it.
func (s *Store) Watch() error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	files := map[string]string{} // fsnotify names absolute paths
	for _, p := range s.watched() {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		files[abs] = p
	}
	var errs []error
	for abs := range files {
		errs = append(errs, arm(w, abs))
	}
	s.mu.Lock()
	if s.watcher != nil {
		s.mu.Unlock()
		w.Close()
		return errors.New("settings: the store is already watching")
	}
	s.watcher = w
	s.mu.Unlock()
	go s.watch(w, files)
	return errors.Join(errs...)
}

// arm watches the directory of file, or the nearest of its ancestors that
// exists.
func arm(w *fsnotify.Watcher, file string) error {
	dir := filepath.Dir(file)
	for {
		err := w.Add(dir)
		if err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
}

func (s *Store) watch(w *fsnotify.Watcher, files map[string]string) {
	timers := map[string]*time.Timer{}
	defer func() {
		for _, t := range timers {
			t.Stop()
		}
	}()
	reload := func(p string) {
		if t := timers[p]; t != nil {
			t.Reset(s.opts.Debounce)
		} else {
			timers[p] = time.AfterFunc(s.opts.Debounce, func() { s.Reload(p) })
		}
	}
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Chmod) {
				continue
			}
			if p, ok := files[ev.Name]; ok {
				reload(p)
				continue
			}
			// A directory on the way to a file appeared or went away: the
			// watch moves to the nearest directory that exists, and the
			// file, which may have been written before the watch moved, is
			// read again. A failure leaves the watch where it was.
			for abs, p := range files {
				if strings.HasPrefix(abs, ev.Name+string(filepath.Separator)) {
					_ = arm(w, abs)
					reload(p)
				}
			}
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		}
	}
}

// Close stops watching; reloads no longer happen.
func (s *Store) Close() error {
	s.mu.Lock()
	w := s.watcher
	s.watcher = nil
	s.closed = true
	s.mu.Unlock()
	if w == nil {
		return nil
	}
	return w.Close()
}
