module Parcel
  # A weight in grams.
  class WeightUnit
    def self.grams(value)
      value.to_i
    end

    def self.kilos(value)
      value.to_f / 1000
    end
  end
end
