// The common interface of the shape analyzers (one file per shape in this folder): the candidates a file offers
// (its functions, tables and classes), and a shape's `detect` and `analyze` over them. analyze.ts asks each
// shape in turn; the first that detects a candidate analyses it.
import type { ArrayLiteralExpression, ClassDeclaration, Node, ParameterDeclaration, Type, VariableDeclaration, VariableStatement } from 'ts-morph';
import type { Ctx } from '../shape.js';

/** A function (declaration, arrow, function expression, method) whose parameters and result the shapes read. */
export type FunctionLike = Node & { getParameters(): ParameterDeclaration[]; getReturnType(): Type };

/** A top-level function of a file (or one CommonJS hands out), as found. */
export interface FunctionCandidate {
  readonly kind: 'function';
  /** The name the module exports it under (CommonJS), else its own. */
  readonly name: string;
  readonly fn: FunctionLike;
  readonly params: readonly ParameterDeclaration[];
  readonly exported: boolean;
  readonly isDefault: boolean;
  readonly overloaded: boolean;
  readonly line: number;
  /** The statement holding it, where its docblock may be (`const craft = async (bot) => …`). */
  readonly statement?: Node;
}

/** A top-level `const table = [ … ]`. */
export interface TableCandidate {
  readonly kind: 'table';
  readonly statement: VariableStatement;
  readonly decl: VariableDeclaration;
  readonly init: ArrayLiteralExpression;
}

/** A class of the file. */
export interface ClassCandidate {
  readonly kind: 'class';
  readonly cls: ClassDeclaration;
}

/** A declaration some shape may wrap, in file order per kind (functions, tables, classes). */
export type Candidate = FunctionCandidate | TableCandidate | ClassCandidate;

/** One runner shape: whether a candidate is of that shape, and its analysis (capabilities and findings go to `ctx.out`). */
export interface ShapeAnalyzer {
  readonly name: string;
  detect(ctx: Ctx, candidate: Candidate): boolean;
  analyze(ctx: Ctx, candidate: Candidate): void;
}

type CandidateOf<K extends Candidate['kind']> = Extract<Candidate, { kind: K }>;

/** A shape over one kind of candidate (the others are never its shape). */
export function defineShape<K extends Candidate['kind']>(shape: {
  readonly name: string;
  readonly kind: K;
  detect(ctx: Ctx, candidate: CandidateOf<K>): boolean;
  analyze(ctx: Ctx, candidate: CandidateOf<K>): void;
}): ShapeAnalyzer {
  const isKind = (candidate: Candidate): candidate is CandidateOf<K> => candidate.kind === shape.kind;
  return {
    name: shape.name,
    detect: (ctx, candidate) => isKind(candidate) && shape.detect(ctx, candidate),
    analyze: (ctx, candidate) => {
      if (isKind(candidate)) shape.analyze(ctx, candidate);
    },
  };
}
