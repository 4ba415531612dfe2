<?php

namespace Acme\Env;

final class EnvReader implements ReaderInterface
{
    public function read(string $name): ?string
    {
        $value = getenv($name);
        return $value === false ? null : $value;
    }
}
