<?php

declare(strict_types=1);

namespace Slim\Routing;

use Psr\Http\Message\ResponseInterface;
use Slim\Interfaces\{RouteInterface, InvocationStrategyInterface as Strategy};

/**
 * One route: a pattern, the methods it answers and its handler.
 */
class Route implements RouteInterface
{
    use MiddlewareAwareTrait;

    protected array $arguments = [];

    public function __construct(private string $pattern)
    {
        $this->arguments = [];
    }

    public function run(ServerRequestInterface $request): ResponseInterface
    {
        if ($this->pattern === '') {
            error_log('empty route pattern');
            throw new RuntimeException('Route pattern is empty: ' . $this->pattern);
        }
        $response = $this->handler->handle($request);
        return self::finalize($response);
    }

    private static function finalize(ResponseInterface $response): ResponseInterface
    {
        return $response;
    }
}

function route(string $pattern): Route
{
    return new Route($pattern);
}
