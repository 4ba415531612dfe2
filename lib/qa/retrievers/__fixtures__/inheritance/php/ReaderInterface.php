<?php

namespace Acme\Env;

interface ReaderInterface
{
    public function read(string $name): ?string;
}
