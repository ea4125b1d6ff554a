package workspace

import (
	"bytes"
	"context"
	"os"
	"path/filepath"

	"portalwright/internal/gitcli"
)

// A canonical repository keeps no remote: the git host of an imported portal is the portal's
// record (portals.upstream_url, credentials apart), named by every fetch and push
// (workspace/hostsync), so changing the host's URL in the portal's settings cannot leave a stale copy
// behind, and no plain `git push` in the repository can reach a host. The clone that builds a
// repository (an import, a copy, a template's first commit) writes remote.origin; it is
// removed before the repository is installed, and from repositories made before this version
// by the start-up sweep.

// dropOrigin removes remote.origin from a bare repository's configuration when it has one.
func (r *Repos) dropOrigin(ctx context.Context, bare string) error {
	config, err := os.ReadFile(filepath.Join(bare, "config"))
	if err != nil || !bytes.Contains(config, []byte(`[remote "origin"]`)) {
		return nil
	}
	_, err = r.run(ctx, bare, gitcli.Command("config", "--remove-section").Value("remote.origin"))
	return err
}
