package taskrunner

// Watch records the request a user's workspace of a portal runs with — its settings for
// Changed, the request autoRun starts — without starting a run, and returns the state. The API
// calls it on every state read, so a state restored after a restart (Restore keeps no
// settings) and settings edited since the last run are followed. With the runner inactive in
// the settings a finished state becomes INACTIVE; an INACTIVE state becomes UNINITIATED when the
// settings are active again. A run under way is left alone.
func (r *Runner) Watch(req Request) State {
	r.mu.Lock()
	s := r.slot(req.Key)
	settings := req.Settings
	s.settings = &settings
	s.req = &req
	phase := s.state.Phase
	r.mu.Unlock()
	switch {
	case phase.Busy():
	case !req.Settings.Active && phase != Inactive:
		r.set(req.Key, func(st *State) {
			if !st.Phase.Busy() {
				st.Phase, st.Error = Inactive, nil
			}
		})
	case req.Settings.Active && phase == Inactive:
		r.set(req.Key, func(st *State) {
			if st.Phase == Inactive {
				st.Phase = Uninitiated
			}
		})
	}
	return r.State(req.Key)
}
