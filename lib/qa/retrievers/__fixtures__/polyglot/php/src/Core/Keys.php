<?php

namespace Shop\Core;

/** Small helpers shared by the store, the API and the network client. */
final class Keys
{
    /** Normalizes a record name into the key it is stored under. */
    public static function formatKey(string $name): string
    {
        return strtolower(trim($name));
    }
}
