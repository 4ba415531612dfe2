# The shop: a record store, its handlers and a network client.
require "shop/app/api"
require "shop/app/worker"
require "shop/net/client"
