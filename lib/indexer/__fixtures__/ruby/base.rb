# frozen_string_literal: true

require "rack"
require_relative "helpers"

module Sinatra
  # Runs routes for a request.
  class Base < Rack::Builder
    include Helpers

    def self.get(path, &block)
      route("GET", path, &block)
    end

    def call(env)
      @env = env
      dispatch!
      settings.logger.error("no response") unless @response
    end

    private

    def dispatch!
      route! || not_found
    rescue NotFound => e
      raise Error, "dispatch failed: #{e.message}"
    end

    def route!
      routes = settings.routes
      routes.each { |r| process_route(r) }
    end
  end
end
