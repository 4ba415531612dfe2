/** Routes and the router that picks one for a request. */
export interface Request {
  path: string;
}

export class Route {
  constructor(
    readonly path: string,
    readonly methods: string[],
  ) {}

  /** Whether the request's path is this route's path. */
  match(request: Request): boolean {
    return request.path.replace(/\/$/, "") === this.path.replace(/\/$/, "");
  }
}

export class Router {
  routes: Route[] = [];

  match(request: Request): Route | null {
    for (const route of this.routes) if (route.match(request)) return route;
    return null;
  }
}
