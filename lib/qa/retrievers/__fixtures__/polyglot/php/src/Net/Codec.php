<?php

namespace Shop\Net;

use Shop\Net\Client;

/** Encoding of records on the wire. */
final class Codec
{
    /** Decodes a wire payload into a record. */
    public static function decode(string $data): string
    {
        return $data;
    }

    /** Encodes a record and sends it. */
    public static function encodeAndSend(string $record): int
    {
        return Client::send($record);
    }
}
