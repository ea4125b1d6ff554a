//go:build !devweb

// Package webui embeds the built web app (web/dist) into the binary.
// Build with -tags devweb to serve web/dist from disk instead (see webui_dev.go).
package webui

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// FS returns the built web app: index.html, version.json and assets/.
func FS() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return sub
}
