/**
 * From co-occurrence counts to associations: positive pointwise mutual information
 * (PPMI: how much more often two words meet than chance would have them meet, with
 * the context distribution smoothed by the exponent 0.75, as Levy and Goldberg tune
 * it), kept as a sparse symmetric matrix, and its truncated eigendecomposition by a
 * randomized range finder (Halko, Martinsson and Tropp) — word vectors in which words
 * used alike lie close even when they never meet. The small dense eigenproblem at the
 * end is ml-matrix's.
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import type { PairCounts } from "./cooccurrence.ts";

/** A sparse symmetric matrix in compressed rows (both triangles stored). */
export interface SparseMatrix {
  size: number;
  rowStart: Uint32Array;
  columns: Uint32Array;
  values: Float32Array;
}

const SMOOTHING = 0.75;

/**
 * The PPMI matrix of the counts over a vocabulary of `size` words; pairs with PPMI ≤
 * `minimum` are dropped. `value` turns a pair's PMI and count into the stored value
 * (default: the PMI itself).
 */
export function ppmiMatrix(
  counts: PairCounts,
  size: number,
  options: { minimum?: number; value?: (pmi: number, count: number) => number } = {},
): SparseMatrix {
  const minimum = options.minimum ?? 0;
  const value = options.value ?? ((p: number) => p);
  const marginal = new Float64Array(size);
  let total = 0;
  counts.forEach((a, b, c) => {
    marginal[a] = (marginal[a] as number) + c;
    marginal[b] = (marginal[b] as number) + c;
    total += 2 * c;
  });
  let smoothedTotal = 0;
  const smoothed = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    smoothed[i] = Math.pow(marginal[i] as number, SMOOTHING);
    smoothedTotal += smoothed[i] as number;
  }
  // PMI(a, b) = log(P(a, b) / (Pα(a) Pα(b))), symmetric since both sides are smoothed alike.
  const pmi = (a: number, b: number, c: number) =>
    Math.log(
      ((2 * c) / total) *
        (smoothedTotal / (smoothed[a] as number)) *
        (smoothedTotal / (smoothed[b] as number)),
    );
  const perRow = new Uint32Array(size);
  counts.forEach((a, b, c) => {
    if (pmi(a, b, c) > minimum) {
      perRow[a] = (perRow[a] as number) + 1;
      perRow[b] = (perRow[b] as number) + 1;
    }
  });
  const rowStart = new Uint32Array(size + 1);
  for (let i = 0; i < size; i++) rowStart[i + 1] = (rowStart[i] as number) + (perRow[i] as number);
  const nonZero = rowStart[size] as number;
  const columns = new Uint32Array(nonZero);
  const values = new Float32Array(nonZero);
  const fill = rowStart.slice(0, size);
  counts.forEach((a, b, c) => {
    const p = pmi(a, b, c);
    if (p <= minimum) return;
    const v = value(p, c);
    columns[fill[a] as number] = b;
    values[fill[a] as number] = v;
    fill[a] = (fill[a] as number) + 1;
    columns[fill[b] as number] = a;
    values[fill[b] as number] = v;
    fill[b] = (fill[b] as number) + 1;
  });
  return { size, rowStart, columns, values };
}

/** out = matrix · block, blocks row-major (size × width). */
function multiply(matrix: SparseMatrix, block: Float64Array, width: number): Float64Array {
  const { size, rowStart, columns, values } = matrix;
  const out = new Float64Array(size * width);
  for (let row = 0; row < size; row++) {
    const end = rowStart[row + 1] as number;
    const at = row * width;
    for (let p = rowStart[row] as number; p < end; p++) {
      const from = (columns[p] as number) * width;
      const value = values[p] as number;
      for (let w = 0; w < width; w++)
        out[at + w] = (out[at + w] as number) + value * (block[from + w] as number);
    }
  }
  return out;
}

/** Orthonormalises the columns of a row-major block in place (modified Gram–Schmidt, twice for stability). */
function orthonormalise(block: Float64Array, size: number, width: number): void {
  for (let pass = 0; pass < 2; pass++) {
    for (let w = 0; w < width; w++) {
      for (let prev = 0; prev < w; prev++) {
        let dot = 0;
        for (let i = 0; i < size; i++)
          dot += (block[i * width + w] as number) * (block[i * width + prev] as number);
        for (let i = 0; i < size; i++)
          block[i * width + w] = (block[i * width + w] as number) - dot * (block[i * width + prev] as number);
      }
      let norm = 0;
      for (let i = 0; i < size; i++) norm += (block[i * width + w] as number) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < size; i++) block[i * width + w] = (block[i * width + w] as number) / norm;
    }
  }
}

/** A small deterministic generator (mulberry32) and standard normal draws from it (Box–Muller). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

export interface Eigen {
  /** eigenvalues, largest first */
  values: Float64Array;
  /** eigenvectors, row-major size × rank */
  vectors: Float64Array;
  rank: number;
}

/**
 * The `rank` largest eigenpairs of a symmetric sparse matrix: a random block, a few power
 * iterations to sharpen its range, the matrix projected on that range, and the small
 * eigenproblem solved exactly. Deterministic for a given seed.
 */
export function truncatedEigen(
  matrix: SparseMatrix,
  rank: number,
  options: { oversample?: number; iterations?: number; seed?: number } = {},
): Eigen {
  const size = matrix.size;
  const width = Math.min(size, rank + (options.oversample ?? 10));
  const draw = gaussian(options.seed ?? 1);
  let block: Float64Array = new Float64Array(size * width);
  for (let i = 0; i < block.length; i++) block[i] = draw();
  for (let it = 0; it <= (options.iterations ?? 3); it++) {
    block = multiply(matrix, block, width);
    orthonormalise(block, size, width);
  }
  // B = Qᵀ A Q, symmetric width × width.
  const projected = multiply(matrix, block, width);
  const small = new Matrix(width, width);
  for (let a = 0; a < width; a++) {
    for (let b = a; b < width; b++) {
      let dot = 0;
      for (let i = 0; i < size; i++)
        dot += (block[i * width + a] as number) * (projected[i * width + b] as number);
      small.set(a, b, dot);
      small.set(b, a, dot);
    }
  }
  const decomposition = new EigenvalueDecomposition(small, { assumeSymmetric: true });
  const order = decomposition.realEigenvalues
    .map((value, index) => ({ value, index }))
    .sort((x, y) => y.value - x.value)
    .slice(0, Math.min(rank, width));
  const eigenvectors = decomposition.eigenvectorMatrix;
  const kept = order.length;
  const values = new Float64Array(order.map((o) => o.value));
  // The eigenvectors of A: Q times those of B.
  const vectors = new Float64Array(size * kept);
  const coefficients = order.map(({ index }) =>
    Array.from({ length: width }, (_, w) => eigenvectors.get(w, index)),
  );
  for (let i = 0; i < size; i++) {
    for (let k = 0; k < kept; k++) {
      const c = coefficients[k] as number[];
      let v = 0;
      for (let w = 0; w < width; w++) v += (c[w] as number) * (block[i * width + w] as number);
      vectors[i * kept + k] = v;
    }
  }
  return { values, vectors, rank: kept };
}

/**
 * Word vectors from the eigenpairs: each eigenvector scaled by the square root of its
 * (positive) eigenvalue, each word's vector normalised to unit length.
 */
export function wordVectors(eigen: Eigen): Float32Array {
  const { rank, values, vectors } = eigen;
  const size = vectors.length / Math.max(1, rank);
  const out = new Float32Array(size * rank);
  const scale = Array.from(values, (v) => Math.sqrt(Math.max(0, v)));
  for (let i = 0; i < size; i++) {
    let norm = 0;
    for (let k = 0; k < rank; k++) {
      const v = (vectors[i * rank + k] as number) * (scale[k] as number);
      out[i * rank + k] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < rank; k++) out[i * rank + k] = (out[i * rank + k] as number) / norm;
  }
  return out;
}
