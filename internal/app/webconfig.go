package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// configurableWebFiles are web app files an operator may replace by putting a file of the same
// name in <data-dir>/web-config/ — the probe configuration holds the documentation menu's
// links, legal documents and the upload filter (spec 1 §3 Probe configuration).
var configurableWebFiles = map[string]string{
	"assets/config/probe.config.json": "probe.config.json",
}

// webWithConfig serves the operator's copies of the configurable files when they exist.
type webWithConfig struct {
	fs.FS
	dir string
}

func (w webWithConfig) Open(name string) (fs.File, error) {
	if local, ok := configurableWebFiles[name]; ok {
		f, err := os.Open(filepath.Join(w.dir, local))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return w.FS.Open(name)
}
