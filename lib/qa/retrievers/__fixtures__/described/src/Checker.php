<?php

namespace Env;

class Checker
{
    private array $values;

    public function __construct(array $values)
    {
        $this->values = $values;
    }

    public function required(): self
    {
        return $this->assert(fn ($value) => $value !== null, 'is missing');
    }

    public function notEmpty(): self
    {
        return $this->assert(fn ($value) => trim((string) $value) !== '', 'is empty');
    }

    public function isInteger(): self
    {
        return $this->assert(fn ($value) => ctype_digit((string) $value), 'is not an integer');
    }

    /**
     * Run the callback on every value and fail with the message when it returns false.
     */
    private function assert(callable $callback, string $message): self
    {
        foreach ($this->values as $name => $value) {
            if (!$callback($value)) {
                throw new \RuntimeException("$name $message");
            }
        }
        return $this;
    }
}
