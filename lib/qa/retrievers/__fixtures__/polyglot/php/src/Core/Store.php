<?php

namespace Shop\Core;

/** The record store: keeps records by their normalized key. */
class Store
{
    private array $rows = [];

    /** Persists a record in the store under its normalized key. */
    public function save(string $name, string $record): string
    {
        $key = Keys::formatKey($name);
        $this->rows[$key] = $record;
        return $key;
    }

    /** Looks a record up by name. */
    public function load(string $name): ?string
    {
        return $this->rows[Keys::formatKey($name)] ?? null;
    }
}
