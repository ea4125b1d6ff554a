// Package upstream keeps a portal created from a git URL connected to the git host it came
// from (issue 15, design §5: "fetched on open, pushed on commit, with stored credentials").
//
// What it does:
//   - Opening a portal and committing to it first fetch the host's branches (with a time-out,
//     --upstream-fetch-timeout) and bring new commits onto the portal's branches; a host that
//     cannot be reached never stops the open or the commit: the answer carries a warning and
//     the portal's upstream state says ERROR.
//   - After a commit reached the portal's branch it is pushed to the host (never forced). A
//     refused or failed push keeps the commit: the portal is AHEAD of its upstream, the reason
//     is recorded, and Sync now (fetch, integrate, push) tries again. A branch that went both
//     ways gets a merge commit, so no history is rewritten on either side.
//   - A branch the host deleted leaves the portal at the next fetch, unless someone's work holds
//     it (a workspace's unpushed commits or edits, or commits of the portal the host never had):
//     then the status lists it with deletedOnHost and it is never pushed back (issue 24).
//   - Its cost does not grow with the number of branches: one fetch with --prune, and the
//     comparison and integration from one listing of the refs (workspace/hostsync).
//   - The host's push webhook (POST /upstream/webhook/{portalId}, HMAC-SHA256 of the body in
//     X-Hub-Signature-256, or the secret in X-Gitlab-Token) fetches at once; branches that
//     moved are announced as WORKSPACE_COMMIT, so authors get the reload toast.
//
// Safety rules:
//   - Credentials (user name and password or token, or a per-portal ed25519 deploy key) are
//     sealed with AES-256-GCM under the operator's key (--secrets-key-file or
//     PORTALWRIGHT_SECRETS_KEY), bound to the portal's id, before they reach the database.
//     Without a key nothing secret is stored (503 SECRETS_KEY_MISSING). They are never
//     answered by the API (only the kind, whether there are any, and a deploy key's public
//     half), never logged, and never written to a URL, an argument or any git configuration:
//     each git process gets them in its own environment (an Authorization header through
//     GIT_CONFIG_PARAMETERS, or GIT_SSH_COMMAND naming a 0600 key file in a private temporary
//     folder that is removed when the process ends, with a per-portal known_hosts).
//   - The URL is kept without credentials: user:password@ in a URL given at import is moved
//     into the sealed credentials.
//   - Every fetch and push obeys the remote host policy of imports (workspace/remote_policy.go:
//     no loopback, private or link-local hosts unless --allow-private-git-hosts).
//   - Every fetch and push has a time-out and runs under the portal's lock (so it is
//     serialised with commits, also across instances).
//   - The webhook is public but does nothing before its signature checked out (401 otherwise);
//     its secret is derived from the server's signing secret and a per-portal nonce, so it is
//     never stored, and a new nonce replaces it.
package upstream
