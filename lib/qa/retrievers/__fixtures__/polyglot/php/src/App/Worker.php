<?php

namespace Shop\App;

use Shop\Core\Store;

/** Background jobs that import records in bulk. */
class Worker
{
    /** Saves every record of a batch. */
    public function runBatch(array $names): int
    {
        $store = new Store();
        foreach ($names as $name) {
            $store->save($name, $name);
        }
        return count($names);
    }
}
