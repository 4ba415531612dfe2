using System.Collections.Generic;
using Acme.Shop.Core;

namespace Acme.Shop.App
{
    /// <summary>Background jobs that import records in bulk.</summary>
    public class Worker
    {
        private readonly Store _store = new Store();

        /// <summary>Saves every record of a batch.</summary>
        public int RunBatch(List<string> names)
        {
            foreach (var name in names)
            {
                _store.Save(name, name);
            }
            return names.Count;
        }
    }
}
