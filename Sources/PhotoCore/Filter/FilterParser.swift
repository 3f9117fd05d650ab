/// Parses filter text into a `FilterExpression` by recursive descent.
///
/// Grammar (OR binds loosest, NOT tightest):
///
///     filter  := or?
///     or      := and ("OR" and)*
///     and     := unary ("AND"? unary)*
///     unary   := ("NOT" | "-") unary | primary
///     primary := "(" or ")" | key ":" value
public struct FilterParser {
    private let tokens: [FilterToken]
    private var index = 0
    /// Open parentheses and negations around the current token.
    private var depth = 0

    /// How deep parentheses and negations may nest: bounds the recursion of parsing and
    /// evaluation whatever text arrives.
    public static let maximumDepth = 100

    private init(tokens: [FilterToken]) { self.tokens = tokens }

    /// Parses a whole filter; empty or all-blank text is `FilterExpression.everything`.
    public static func parse(_ source: String) throws(FilterError) -> FilterExpression {
        var parser = FilterParser(tokens: try FilterLexer(source).tokens())
        guard !parser.tokens.isEmpty else { return .everything }
        let expression = try parser.parseOr()
        if let extra = parser.peek {
            // parseOr only stops early at a ')' it did not open.
            throw .unmatchedClosingParenthesis(at: extra.at)
        }
        return expression
    }

    private var peek: FilterToken? { index < tokens.count ? tokens[index] : nil }

    /// Whether a token can begin an operand (a term, a group or a negation).
    private static func startsOperand(_ token: FilterToken?) -> Bool {
        switch token?.kind {
        case .word, .openParenthesis, .not, .minus: true
        default: false
        }
    }

    private mutating func parseOr() throws(FilterError) -> FilterExpression {
        var operands = [try parseAnd()]
        while let token = peek, token.kind == .or {
            index += 1
            guard Self.startsOperand(peek) else { throw .missingOperand("OR", at: token.at) }
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseAnd() throws(FilterError) -> FilterExpression {
        var operands: [FilterExpression] = []
        while let token = peek {
            switch token.kind {
            case .or, .closeParenthesis:
                break
            case .and:
                guard !operands.isEmpty else { throw .missingOperand("AND", at: token.at) }
                index += 1
                guard Self.startsOperand(peek) else { throw .missingOperand("AND", at: token.at) }
                continue
            default:
                operands.append(try parseUnary())
                continue
            }
            break
        }
        if operands.isEmpty, let token = peek {
            if token.kind == .or { throw .missingOperand("OR", at: token.at) }
            throw .unmatchedClosingParenthesis(at: token.at)
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    private mutating func parseUnary() throws(FilterError) -> FilterExpression {
        guard let token = peek else { return .everything }
        switch token.kind {
        case .not, .minus:
            index += 1
            guard Self.startsOperand(peek) else { throw .emptyNegation(at: token.at) }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw .nestedTooDeeply(at: token.at) }
            return .not(try parseUnary())
        default:
            return try parsePrimary()
        }
    }

    private mutating func parsePrimary() throws(FilterError) -> FilterExpression {
        guard let token = peek else { return .everything }
        index += 1
        switch token.kind {
        case .openParenthesis:
            guard let next = peek else { throw .unclosedParenthesis(at: token.at) }
            if next.kind == .closeParenthesis { throw .emptyParentheses(at: token.at) }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maximumDepth else { throw .nestedTooDeeply(at: token.at) }
            let inner = try parseOr()
            guard let close = peek, close.kind == .closeParenthesis else { throw .unclosedParenthesis(at: token.at) }
            index += 1
            return inner
        case .word(let word):
            return .term(try FilterTermParser.term(word, at: token.at))
        default:
            // Unreachable: callers only come here for an operand start.
            throw .unmatchedClosingParenthesis(at: token.at)
        }
    }
}
