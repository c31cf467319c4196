// A small JSON reader and writer, so that the client needs no package: .NET Framework 4.6.1 has no
// System.Text.Json, and DataContractJsonSerializer wants a contract per shape, while the client
// reads answers that grow fields over time (and must keep event types it does not know).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Cleaver.Pos
{
    public enum JsonKind { Null, Boolean, Number, String, Array, Object }

    /// <summary>A parsed JSON value. Members keep their order; a missing member reads as null.</summary>
    public sealed class JsonValue
    {
        private readonly List<JsonValue> items;
        private readonly List<KeyValuePair<string, JsonValue>> members;
        private readonly string text;
        private readonly double number;
        private readonly bool boolean;

        public JsonKind Kind { get; private set; }

        private JsonValue(JsonKind kind, string text = null, double number = 0, bool boolean = false)
        {
            Kind = kind;
            this.text = text;
            this.number = number;
            this.boolean = boolean;
            if (kind == JsonKind.Array) items = new List<JsonValue>();
            if (kind == JsonKind.Object) members = new List<KeyValuePair<string, JsonValue>>();
        }

        /// <summary>Elements of an array, members of an object, 0 otherwise.</summary>
        public int Count
        {
            get { return items != null ? items.Count : members != null ? members.Count : 0; }
        }

        public JsonValue this[int index]
        {
            get { return items[index]; }
        }

        /// <summary>The member of that name, or null when absent (or this is not an object).</summary>
        public JsonValue this[string name]
        {
            get
            {
                if (members == null) return null;
                foreach (var member in members)
                    if (member.Key == name) return member.Value;
                return null;
            }
        }

        public IEnumerable<JsonValue> Items
        {
            get { return items ?? new List<JsonValue>(); }
        }

        public IEnumerable<KeyValuePair<string, JsonValue>> Members
        {
            get { return members ?? new List<KeyValuePair<string, JsonValue>>(); }
        }

        public string AsString()
        {
            switch (Kind)
            {
                case JsonKind.String: return text;
                case JsonKind.Null: return null;
                case JsonKind.Number: return Json.Number(number);
                case JsonKind.Boolean: return boolean ? "true" : "false";
                default: return ToJson();
            }
        }

        public double AsDouble() { return number; }
        public bool AsBoolean() { return boolean; }

        /// <summary>The member as text, or the default when absent or null.</summary>
        public string Str(string name, string defaultValue = null)
        {
            var v = this[name];
            return v == null || v.Kind == JsonKind.Null ? defaultValue : v.AsString();
        }

        public double Num(string name, double defaultValue = 0)
        {
            var v = this[name];
            return v == null || v.Kind != JsonKind.Number ? defaultValue : v.number;
        }

        public bool Bool(string name, bool defaultValue = false)
        {
            var v = this[name];
            return v == null || v.Kind != JsonKind.Boolean ? defaultValue : v.boolean;
        }

        public string ToJson()
        {
            var sb = new StringBuilder();
            Write(sb);
            return sb.ToString();
        }

        private void Write(StringBuilder sb)
        {
            switch (Kind)
            {
                case JsonKind.Null: sb.Append("null"); break;
                case JsonKind.Boolean: sb.Append(boolean ? "true" : "false"); break;
                case JsonKind.Number: sb.Append(Json.Number(number)); break;
                case JsonKind.String: sb.Append(Json.Quote(text)); break;
                case JsonKind.Array:
                    sb.Append('[');
                    for (var i = 0; i < items.Count; i++)
                    {
                        if (i > 0) sb.Append(',');
                        items[i].Write(sb);
                    }
                    sb.Append(']');
                    break;
                default:
                    sb.Append('{');
                    for (var i = 0; i < members.Count; i++)
                    {
                        if (i > 0) sb.Append(',');
                        sb.Append(Json.Quote(members[i].Key)).Append(':');
                        members[i].Value.Write(sb);
                    }
                    sb.Append('}');
                    break;
            }
        }

        public static JsonValue Parse(string json)
        {
            var reader = new Reader(json ?? "");
            reader.SkipSpace();
            var value = reader.Value(0);
            reader.SkipSpace();
            if (!reader.AtEnd) throw reader.Error("text after the value");
            return value;
        }

        private sealed class Reader
        {
            private readonly string s;
            private int at;

            public Reader(string s) { this.s = s; }

            public bool AtEnd { get { return at >= s.Length; } }

            public FormatException Error(string what)
            {
                return new FormatException("invalid JSON at character " + at + ": " + what);
            }

            public void SkipSpace()
            {
                while (at < s.Length && (s[at] == ' ' || s[at] == '\t' || s[at] == '\n' || s[at] == '\r')) at++;
            }

            private void Expect(string word)
            {
                if (string.CompareOrdinal(s, at, word, 0, word.Length) != 0) throw Error("expected " + word);
                at += word.Length;
            }

            public JsonValue Value(int depth)
            {
                if (depth > 256) throw Error("nested too deeply");
                if (AtEnd) throw Error("unexpected end");
                var c = s[at];
                switch (c)
                {
                    case '{': return Object(depth);
                    case '[': return Array(depth);
                    case '"': return new JsonValue(JsonKind.String, String());
                    case 't': Expect("true"); return new JsonValue(JsonKind.Boolean, boolean: true);
                    case 'f': Expect("false"); return new JsonValue(JsonKind.Boolean, boolean: false);
                    case 'n': Expect("null"); return new JsonValue(JsonKind.Null);
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return NumberValue();
                        throw Error("unexpected '" + c + "'");
                }
            }

            private JsonValue Object(int depth)
            {
                var result = new JsonValue(JsonKind.Object);
                at++;
                SkipSpace();
                if (!AtEnd && s[at] == '}') { at++; return result; }
                while (true)
                {
                    SkipSpace();
                    if (AtEnd || s[at] != '"') throw Error("expected a member name");
                    var name = String();
                    SkipSpace();
                    Expect(":");
                    SkipSpace();
                    result.members.Add(new KeyValuePair<string, JsonValue>(name, Value(depth + 1)));
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end");
                    if (s[at] == ',') { at++; continue; }
                    if (s[at] == '}') { at++; return result; }
                    throw Error("expected , or }");
                }
            }

            private JsonValue Array(int depth)
            {
                var result = new JsonValue(JsonKind.Array);
                at++;
                SkipSpace();
                if (!AtEnd && s[at] == ']') { at++; return result; }
                while (true)
                {
                    SkipSpace();
                    result.items.Add(Value(depth + 1));
                    SkipSpace();
                    if (AtEnd) throw Error("unexpected end");
                    if (s[at] == ',') { at++; continue; }
                    if (s[at] == ']') { at++; return result; }
                    throw Error("expected , or ]");
                }
            }

            private string String()
            {
                at++;
                var sb = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw Error("unterminated string");
                    var c = s[at++];
                    if (c == '"') return sb.ToString();
                    if (c != '\\') { sb.Append(c); continue; }
                    if (AtEnd) throw Error("unterminated string");
                    var e = s[at++];
                    switch (e)
                    {
                        case '"': sb.Append('"'); break;
                        case '\\': sb.Append('\\'); break;
                        case '/': sb.Append('/'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'u':
                            if (at + 4 > s.Length) throw Error("short \\u escape");
                            int code;
                            if (!int.TryParse(s.Substring(at, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out code))
                                throw Error("bad \\u escape");
                            sb.Append((char)code);
                            at += 4;
                            break;
                        default: throw Error("bad escape");
                    }
                }
            }

            private JsonValue NumberValue()
            {
                var start = at;
                if (s[at] == '-') at++;
                while (at < s.Length && "0123456789.eE+-".IndexOf(s[at]) >= 0) at++;
                double value;
                if (!double.TryParse(s.Substring(start, at - start), NumberStyles.Float, CultureInfo.InvariantCulture, out value))
                    throw Error("bad number");
                return new JsonValue(JsonKind.Number, number: value);
            }
        }
    }

    public static class Json
    {
        /// <summary>A JSON string literal, quotes included.</summary>
        public static string Quote(string value)
        {
            if (value == null) return "null";
            var sb = new StringBuilder(value.Length + 2);
            sb.Append('"');
            foreach (var c in value)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < ' ') sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            return sb.Append('"').ToString();
        }

        /// <summary>A number as JSON writes it: '.' as the decimal point whatever the culture.</summary>
        public static string Number(double value)
        {
            return value.ToString("R", CultureInfo.InvariantCulture);
        }
    }
}
