<?php

namespace Acme\Env;

final class ArrayReader implements ReaderInterface
{
    public function __construct(private array $values)
    {
    }

    public function read(string $name): ?string
    {
        return $this->values[$name] ?? null;
    }
}
