<?php

namespace Shop\App;

use Shop\Core\Keys;
use Shop\Core\Store;

/** HTTP handlers of the shop. */
class Api
{
    private Store $store;

    public function __construct()
    {
        $this->store = new Store();
    }

    /** Creates the record a request describes. */
    public function handleCreate(string $name, string $record): string
    {
        return $this->store->save($name, $record);
    }

    /** Returns the record a request names. */
    public function handleLookup(string $name): ?string
    {
        return $this->store->load(Keys::formatKey($name));
    }
}
