package router

// Router holds the routes.
type Router struct {
	routes []*Route
}

// NewRoute registers an empty route.
func (rt *Router) NewRoute() *Route {
	route := &Route{}
	rt.routes = append(rt.routes, route)
	return route
}

// HandlePath registers a route for a path template.
func (rt *Router) HandlePath(tpl string) *Route {
	return rt.NewRoute().Path(tpl)
}

// router builds an empty router.
func router() *Router {
	return &Router{}
}

// Default is the router the package's helpers register on.
var Default = router()
