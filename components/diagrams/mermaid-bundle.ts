/**
 * Where the browser loads mermaid from: the package's own prebuilt ES module build,
 * served as it ships by app/vendor/mermaid (bundling mermaid's hundreds of modules
 * ourselves would double the production build's time and memory for a chunk only some
 * pages need). The version in the path lets browsers cache the files for good.
 */
import mermaidPackage from "mermaid/package.json";

export const MERMAID_VERSION: string = mermaidPackage.version;

export const MERMAID_BUNDLE_URL = `/vendor/mermaid/${MERMAID_VERSION}/mermaid.esm.min.mjs`;
