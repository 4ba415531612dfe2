using Acme.Shop.App;
using Acme.Shop.Core;

namespace Acme.Shop.Tests
{
    public class StoreTests
    {
        public void SaveNormalizesKey()
        {
            new Store().Save(" A ", "a");
            new Api().HandleCreate("b", "b");
            Keys.FormatKey("c");
        }
    }
}
