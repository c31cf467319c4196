// The Delphi adapter: HTTP with System.Net.HttpClient, JSON with System.JSON, Base64 with
// System.NetEncoding. It offers what CleaverPlatformFpc offers to the rest of the client.
//
// Not compiled by the repository's test: Delphi does not run on its Linux CI. It is written for
// Delphi 10.3 Rio and later (THTTPClient, TJSONValue, TBase64Encoding); see README.md.
unit CleaverPlatformDelphi;

interface

uses
  System.SysUtils, System.Classes, CleaverTypes;

type
  TCleaverHttpAnswer = record
    Status: Integer;
    Body: string;
    RetryAfter: string;
  end;

/// One HTTP exchange. Any status is returned; a failed connection raises ECleaverNetworkError.
/// NeverSent is always False here: System.Net.HttpClient does not say how far a request got, so
/// only calls safe to repeat are resent after a network failure.
function HttpExchange(const Method, Url, Authorization, Body: string; TimeoutMs: Integer;
  out NeverSent: Boolean): TCleaverHttpAnswer;

function ParseJson(const Text: string): ICleaverJson;
/// A JSON string literal, quotes included.
function JsonQuote(const S: string): string;

function Base64Encode(const Bytes: TBytes): string;
function Base64Decode(const S: string): TBytes;

/// Bytes of a string as UTF-8, and back.
function Utf8Bytes(const S: string): TBytes;
function Utf8Text(const Bytes: TBytes): string;

function UnixNowSeconds: Int64;
/// The current UTC time as ISO 8601 with milliseconds (`2026-12-07T22:00:00.000Z`).
function UtcNowIso: string;
/// Milliseconds from a steady clock: for token expiry, never moved by a clock change.
function MonotonicMs: Int64;
procedure SleepMs(Ms: Integer);

implementation

uses
  System.JSON, System.NetEncoding, System.Net.HttpClient, System.Net.URLClient, System.DateUtils,
  System.Diagnostics;

type
  TDelphiJson = class(TInterfacedObject, ICleaverJson)
  private
    FValue: TJSONValue;
    FOwned: TJSONValue; // the root, freed with the wrapper that parsed it
    FRoot: ICleaverJson; // keeps the root alive while a child wrapper exists
    function Wrap(AValue: TJSONValue): ICleaverJson;
  public
    constructor Create(AValue, AOwned: TJSONValue; const ARoot: ICleaverJson);
    destructor Destroy; override;
    function Kind: TCleaverJsonKind;
    function Count: Integer;
    function Item(Index: Integer): ICleaverJson;
    function MemberName(Index: Integer): string;
    function Field(const Name: string): ICleaverJson;
    function Has(const Name: string): Boolean;
    function Str(const Name: string; const Default: string = ''): string;
    function Num(const Name: string; Default: Double = 0): Double;
    function Bool(const Name: string; Default: Boolean = False): Boolean;
    function AsString: string;
    function AsNumber: Double;
    function AsBoolean: Boolean;
    function ToJson: string;
  end;

constructor TDelphiJson.Create(AValue, AOwned: TJSONValue; const ARoot: ICleaverJson);
begin
  inherited Create;
  FValue := AValue;
  FOwned := AOwned;
  FRoot := ARoot;
end;

destructor TDelphiJson.Destroy;
begin
  FOwned.Free;
  inherited Destroy;
end;

function TDelphiJson.Wrap(AValue: TJSONValue): ICleaverJson;
var
  Root: ICleaverJson;
begin
  if FRoot <> nil then Root := FRoot else Root := Self;
  Result := TDelphiJson.Create(AValue, nil, Root);
end;

function TDelphiJson.Kind: TCleaverJsonKind;
begin
  // TJSONNumber descends from TJSONString: it is tested first.
  if FValue is TJSONNumber then Result := jkNumber
  else if FValue is TJSONString then Result := jkString
  else if FValue is TJSONBool then Result := jkBoolean
  else if FValue is TJSONArray then Result := jkArray
  else if FValue is TJSONObject then Result := jkObject
  else Result := jkNull;
end;

function TDelphiJson.Count: Integer;
begin
  if FValue is TJSONArray then Result := TJSONArray(FValue).Count
  else if FValue is TJSONObject then Result := TJSONObject(FValue).Count
  else Result := 0;
end;

function TDelphiJson.Item(Index: Integer): ICleaverJson;
begin
  if FValue is TJSONArray then Result := Wrap(TJSONArray(FValue).Items[Index])
  else Result := Wrap(TJSONObject(FValue).Pairs[Index].JsonValue);
end;

function TDelphiJson.MemberName(Index: Integer): string;
begin
  if FValue is TJSONObject then Result := TJSONObject(FValue).Pairs[Index].JsonString.Value else Result := '';
end;

function TDelphiJson.Field(const Name: string): ICleaverJson;
var
  Found: TJSONValue;
begin
  Result := nil;
  if not (FValue is TJSONObject) then Exit;
  Found := TJSONObject(FValue).GetValue(Name);
  if Found <> nil then Result := Wrap(Found);
end;

function TDelphiJson.Has(const Name: string): Boolean;
begin
  Result := (FValue is TJSONObject) and (TJSONObject(FValue).GetValue(Name) <> nil);
end;

function TDelphiJson.Str(const Name: string; const Default: string): string;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind = jkNull) then Result := Default else Result := F.AsString;
end;

function TDelphiJson.Num(const Name: string; Default: Double): Double;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind <> jkNumber) then Result := Default else Result := F.AsNumber;
end;

function TDelphiJson.Bool(const Name: string; Default: Boolean): Boolean;
var
  F: ICleaverJson;
begin
  F := Field(Name);
  if (F = nil) or (F.Kind <> jkBoolean) then Result := Default else Result := F.AsBoolean;
end;

function TDelphiJson.AsString: string;
begin
  case Kind of
    jkString, jkNumber: Result := TJSONString(FValue).Value;
    jkNull: Result := '';
  else
    Result := FValue.ToJSON;
  end;
end;

function TDelphiJson.AsNumber: Double;
begin
  Result := TJSONNumber(FValue).AsDouble;
end;

function TDelphiJson.AsBoolean: Boolean;
begin
  Result := FValue is TJSONTrue;
end;

function TDelphiJson.ToJson: string;
begin
  Result := FValue.ToJSON;
end;

function ParseJson(const Text: string): ICleaverJson;
var
  Value: TJSONValue;
begin
  Value := TJSONObject.ParseJSONValue(Text, False, False);
  if Value = nil then raise ECleaverJsonError.Create('the answer is not JSON');
  Result := TDelphiJson.Create(Value, Value, nil);
end;

function JsonQuote(const S: string): string;
var
  C: Char;
  Builder: TStringBuilder;
begin
  Builder := TStringBuilder.Create;
  try
    Builder.Append('"');
    for C in S do
      case C of
        '"': Builder.Append('\"');
        '\': Builder.Append('\\');
        #10: Builder.Append('\n');
        #13: Builder.Append('\r');
        #9: Builder.Append('\t');
      else
        if Ord(C) < 32 then Builder.Append('\u' + IntToHex(Ord(C), 4).ToLower) else Builder.Append(C);
      end;
    Builder.Append('"');
    Result := Builder.ToString;
  finally
    Builder.Free;
  end;
end;

function Base64Encode(const Bytes: TBytes): string;
var
  Encoding: TBase64Encoding;
begin
  // No line breaks (TNetEncoding.Base64 wraps at 76 characters).
  Encoding := TBase64Encoding.Create(0);
  try
    Result := Encoding.EncodeBytesToString(Bytes);
  finally
    Encoding.Free;
  end;
end;

function Base64Decode(const S: string): TBytes;
begin
  Result := TNetEncoding.Base64.DecodeStringToBytes(S);
end;

function Utf8Bytes(const S: string): TBytes;
begin
  Result := TEncoding.UTF8.GetBytes(S);
end;

function Utf8Text(const Bytes: TBytes): string;
begin
  Result := TEncoding.UTF8.GetString(Bytes);
end;

function UnixNowSeconds: Int64;
begin
  Result := DateTimeToUnix(TTimeZone.Local.ToUniversalTime(Now));
end;

function UtcNowIso: string;
begin
  Result := DateToISO8601(TTimeZone.Local.ToUniversalTime(Now), True);
end;

function MonotonicMs: Int64;
begin
  Result := TStopwatch.GetTimeStamp div (TStopwatch.Frequency div 1000);
end;

procedure SleepMs(Ms: Integer);
begin
  TThread.Sleep(Ms);
end;

function HttpExchange(const Method, Url, Authorization, Body: string; TimeoutMs: Integer;
  out NeverSent: Boolean): TCleaverHttpAnswer;
var
  Client: THTTPClient;
  Source: TStringStream;
  Response: IHTTPResponse;
  Headers: TNetHeaders;
begin
  NeverSent := False;
  Client := THTTPClient.Create;
  Source := nil;
  try
    Client.ConnectionTimeout := TimeoutMs;
    Client.ResponseTimeout := TimeoutMs;
    Client.UserAgent := 'cleaver-delphi-client/1.0';
    Client.Accept := 'application/json';
    if Authorization <> '' then
      Headers := [TNetHeader.Create('Authorization', Authorization)];
    if Body <> '' then
    begin
      Client.ContentType := 'application/json';
      Source := TStringStream.Create(Body, TEncoding.UTF8);
    end;
    try
      if Method = 'GET' then Response := Client.Get(Url, nil, Headers)
      else if Method = 'DELETE' then Response := Client.Delete(Url, nil, Headers)
      else if Method = 'PUT' then Response := Client.Put(Url, Source, nil, Headers)
      else if Method = 'PATCH' then Response := Client.Patch(Url, Source, nil, Headers)
      else Response := Client.Post(Url, Source, nil, Headers);
    except
      on E: ENetHTTPException do
        raise ECleaverNetworkError.CreateFmt('%s %s: %s', [Method, Url, E.Message]);
    end;
    Result.Status := Response.StatusCode;
    Result.Body := Response.ContentAsString(TEncoding.UTF8);
    Result.RetryAfter := Response.HeaderValue['Retry-After'];
  finally
    Source.Free;
    Client.Free;
  end;
end;

end.
