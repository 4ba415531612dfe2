using Acme.Shop.Core;

namespace Acme.Shop.App
{
    /// <summary>HTTP handlers of the shop.</summary>
    public class Api
    {
        private readonly Store _store = new Store();

        /// <summary>Creates the record a request describes.</summary>
        public string HandleCreate(string name, string record)
        {
            return _store.Save(name, record);
        }

        /// <summary>Returns the record a request names.</summary>
        public string HandleLookup(string name)
        {
            return _store.Load(Keys.FormatKey(name));
        }
    }
}
