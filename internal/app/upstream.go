package app

import (
	"fmt"

	"portalwright/internal/httpx"
	"portalwright/internal/upstream"
)

// wireUpstream keeps portals created from a git URL connected to their git host (issue 15
// item 1, internal/upstream): fetched on open, pushed after commits, with credentials sealed
// under the operator's secrets key; its routes are added to features. A secrets key that is
// configured but unreadable stops the start (a silent fallback would refuse every credential).
func (a *App) wireUpstream(signingKey string, features *[]httpx.Routes) error {
	sealer, err := upstream.LoadKey(a.Config.SecretsKeyFile, a.Config.SecretsKey)
	if err != nil {
		return fmt.Errorf("secrets key: %w", err)
	}
	if sealer == nil {
		a.Log.Info("no secrets key configured (--secrets-key-file): credentials of portals' git hosts cannot be stored")
	}
	svc := upstream.NewService(upstream.NewStore(a.DB), a.repos, a.Portals, a.PortalAccess, a.Log, upstream.Config{
		Sealer:       sealer,
		WebhookKey:   []byte("upstream-webhook\x00" + signingKey), // its own derivation of the shared signing secret
		PublicURL:    a.publicURL(),
		FetchTimeout: a.Config.UpstreamFetchTimeout,
		PushTimeout:  a.Config.UpstreamPushTimeout,
	})
	a.upstream = svc
	a.Portals.WithUpstreams(svc)
	a.Portals.Workspace().WithUpstream(svc)
	*features = append(*features, upstream.NewHandler(svc, a.PortalAccess))
	return nil
}
