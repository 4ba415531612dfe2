<?php

namespace Shop\Tests;

use Shop\App\Api;
use Shop\Core\Keys;
use Shop\Core\Store;

final class StoreTest
{
    public function testSaveNormalizesKey(): void
    {
        (new Store())->save(' A ', 'a');
        (new Api())->handleCreate('b', 'b');
        Keys::formatKey('c');
    }
}
