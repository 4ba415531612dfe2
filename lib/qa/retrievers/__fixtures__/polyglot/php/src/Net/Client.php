<?php

namespace Shop\Net;

use Shop\Core\Keys;
use Shop\Net\Codec;

/** The network client: fetches remote records. */
class Client
{
    /** Fetches one remote record by name. */
    public function fetch(string $name): string
    {
        return Codec::decode(Keys::formatKey($name));
    }

    /** Sends an encoded payload. */
    public static function send(string $payload): int
    {
        return strlen($payload);
    }
}
