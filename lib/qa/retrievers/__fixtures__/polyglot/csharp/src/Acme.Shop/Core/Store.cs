using System.Collections.Generic;

namespace Acme.Shop.Core
{
    /// <summary>The record store: keeps records by their normalized key.</summary>
    public class Store
    {
        private readonly Dictionary<string, string> _rows = new Dictionary<string, string>();

        /// <summary>Persists a record in the store under its normalized key.</summary>
        public string Save(string name, string record)
        {
            var key = Keys.FormatKey(name);
            _rows[key] = record;
            return key;
        }

        /// <summary>Looks a record up by name.</summary>
        public string Load(string name)
        {
            return _rows.TryGetValue(Keys.FormatKey(name), out var record) ? record : null;
        }
    }
}
