//go:build devweb

package webui

import (
	"io/fs"
	"os"
)

// FS serves web/dist from disk, so a rebuilt front end shows without relinking the binary.
// Run the binary from the repository root.
func FS() fs.FS { return os.DirFS("web/dist") }
