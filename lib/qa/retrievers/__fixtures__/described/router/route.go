package router

// Route is one registered route and the matchers it checks.
type Route struct {
	matchers []string
}

// Path adds a matcher for the URL path.
func (r *Route) Path(tpl string) *Route {
	r.addTemplateMatcher(tpl, "path")
	return r
}

// Host adds a matcher for the request host.
func (r *Route) Host(tpl string) *Route {
	r.addTemplateMatcher(tpl, "host")
	return r
}

// addTemplateMatcher parses a host or path template into a matcher.
func (r *Route) addTemplateMatcher(tpl string, kind string) {
	pattern := compileTemplate(tpl)
	r.matchers = append(r.matchers, kind+":"+pattern)
}

func compileTemplate(tpl string) string {
	return "^" + tpl + "$"
}

// GetPathTemplate returns the template the path was registered with.
func (r *Route) GetPathTemplate() string {
	return r.matchers[0]
}
