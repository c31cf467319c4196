// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for webhook signatures.
//
// Why a unit of our own: Free Pascal 3.2 ships MD5 and SHA-1 in its `hash` package (and HMAC
// only over those two); SHA-256 arrived in later versions, and DCPcrypt is a Lazarus package,
// not part of the compiler's distribution. Delphi has System.Hash, but one implementation that
// both compilers build keeps the verifier identical on both. tests/ClientChecks.dpr checks it
// against the FIPS 180-4 and RFC 4231 vectors, and against the shared signature vectors.
unit CleaverSha256;

{$IFDEF FPC}{$mode delphi}{$ENDIF}
{$Q-}{$R-}

interface

uses
  SysUtils;

function Sha256(const Data: TBytes): TBytes;
function HmacSha256(const Key, Data: TBytes): TBytes;
function BytesToHex(const Bytes: TBytes): string;
/// Compares every byte whatever the first difference, so that the time taken says nothing about
/// how much of a forged signature was right.
function ConstantTimeEqual(const A, B: TBytes): Boolean;

implementation

const
  K: array[0..63] of Cardinal = (
    $428a2f98, $71374491, $b5c0fbcf, $e9b5dba5, $3956c25b, $59f111f1, $923f82a4, $ab1c5ed5,
    $d807aa98, $12835b01, $243185be, $550c7dc3, $72be5d74, $80deb1fe, $9bdc06a7, $c19bf174,
    $e49b69c1, $efbe4786, $0fc19dc6, $240ca1cc, $2de92c6f, $4a7484aa, $5cb0a9dc, $76f988da,
    $983e5152, $a831c66d, $b00327c8, $bf597fc7, $c6e00bf3, $d5a79147, $06ca6351, $14292967,
    $27b70a85, $2e1b2138, $4d2c6dfc, $53380d13, $650a7354, $766a0abb, $81c2c92e, $92722c85,
    $a2bfe8a1, $a81a664b, $c24b8b70, $c76c51a3, $d192e819, $d6990624, $f40e3585, $106aa070,
    $19a4c116, $1e376c08, $2748774c, $34b0bcb5, $391c0cb3, $4ed8aa4a, $5b9cca4f, $682e6ff3,
    $748f82ee, $78a5636f, $84c87814, $8cc70208, $90befffa, $a4506ceb, $bef9a3f7, $c67178f2);

function Ror(X: Cardinal; N: Integer): Cardinal; inline;
begin
  Result := (X shr N) or (X shl (32 - N));
end;

function Sha256(const Data: TBytes): TBytes;
var
  H: array[0..7] of Cardinal;
  W: array[0..63] of Cardinal;
  Msg: TBytes;
  Len, PaddedLen, Block, I: Integer;
  BitLen: UInt64;
  A, B, C, D, E, F, G, HH, S0, S1, Ch, Maj, T1, T2: Cardinal;
begin
  H[0] := $6a09e667; H[1] := $bb67ae85; H[2] := $3c6ef372; H[3] := $a54ff53a;
  H[4] := $510e527f; H[5] := $9b05688c; H[6] := $1f83d9ab; H[7] := $5be0cd19;
  Msg := nil;
  Len := Length(Data);
  // The message, a 1 bit, zeros, and the length in bits: a multiple of 64 bytes.
  PaddedLen := ((Len + 8) div 64 + 1) * 64;
  SetLength(Msg, PaddedLen);
  FillChar(Msg[0], PaddedLen, 0);
  if Len > 0 then Move(Data[0], Msg[0], Len);
  Msg[Len] := $80;
  BitLen := UInt64(Len) * 8;
  for I := 0 to 7 do
    Msg[PaddedLen - 1 - I] := Byte(BitLen shr (8 * I));
  Block := 0;
  while Block < PaddedLen do
  begin
    for I := 0 to 15 do
      W[I] := (Cardinal(Msg[Block + 4 * I]) shl 24) or (Cardinal(Msg[Block + 4 * I + 1]) shl 16) or
        (Cardinal(Msg[Block + 4 * I + 2]) shl 8) or Cardinal(Msg[Block + 4 * I + 3]);
    for I := 16 to 63 do
    begin
      S0 := Ror(W[I - 15], 7) xor Ror(W[I - 15], 18) xor (W[I - 15] shr 3);
      S1 := Ror(W[I - 2], 17) xor Ror(W[I - 2], 19) xor (W[I - 2] shr 10);
      W[I] := W[I - 16] + S0 + W[I - 7] + S1;
    end;
    A := H[0]; B := H[1]; C := H[2]; D := H[3]; E := H[4]; F := H[5]; G := H[6]; HH := H[7];
    for I := 0 to 63 do
    begin
      S1 := Ror(E, 6) xor Ror(E, 11) xor Ror(E, 25);
      Ch := (E and F) xor ((not E) and G);
      T1 := HH + S1 + Ch + K[I] + W[I];
      S0 := Ror(A, 2) xor Ror(A, 13) xor Ror(A, 22);
      Maj := (A and B) xor (A and C) xor (B and C);
      T2 := S0 + Maj;
      HH := G; G := F; F := E; E := D + T1; D := C; C := B; B := A; A := T1 + T2;
    end;
    H[0] := H[0] + A; H[1] := H[1] + B; H[2] := H[2] + C; H[3] := H[3] + D;
    H[4] := H[4] + E; H[5] := H[5] + F; H[6] := H[6] + G; H[7] := H[7] + HH;
    Inc(Block, 64);
  end;
  Result := nil;
  SetLength(Result, 32);
  for I := 0 to 7 do
  begin
    Result[4 * I] := Byte(H[I] shr 24);
    Result[4 * I + 1] := Byte(H[I] shr 16);
    Result[4 * I + 2] := Byte(H[I] shr 8);
    Result[4 * I + 3] := Byte(H[I]);
  end;
end;

function HmacSha256(const Key, Data: TBytes): TBytes;
const
  BlockSize = 64;
var
  K0, Inner, Outer, Digest: TBytes;
  I: Integer;
begin
  // A key longer than the block is hashed first; a shorter one is padded with zeros.
  K0 := nil;
  SetLength(K0, BlockSize);
  FillChar(K0[0], BlockSize, 0);
  if Length(Key) > BlockSize then
  begin
    Digest := Sha256(Key);
    Move(Digest[0], K0[0], 32);
  end
  else if Length(Key) > 0 then
    Move(Key[0], K0[0], Length(Key));
  Inner := nil;
  Outer := nil;
  SetLength(Inner, BlockSize + Length(Data));
  for I := 0 to BlockSize - 1 do Inner[I] := K0[I] xor $36;
  if Length(Data) > 0 then Move(Data[0], Inner[BlockSize], Length(Data));
  SetLength(Outer, BlockSize + 32);
  for I := 0 to BlockSize - 1 do Outer[I] := K0[I] xor $5c;
  Digest := Sha256(Inner);
  Move(Digest[0], Outer[BlockSize], 32);
  Result := Sha256(Outer);
end;

function BytesToHex(const Bytes: TBytes): string;
const
  Digits: array[0..15] of Char = ('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
var
  I: Integer;
begin
  SetLength(Result, 2 * Length(Bytes));
  for I := 0 to Length(Bytes) - 1 do
  begin
    Result[2 * I + 1] := Digits[Bytes[I] shr 4];
    Result[2 * I + 2] := Digits[Bytes[I] and 15];
  end;
end;

function ConstantTimeEqual(const A, B: TBytes): Boolean;
var
  I: Integer;
  Diff: Byte;
begin
  if Length(A) <> Length(B) then Exit(False);
  Diff := 0;
  for I := 0 to Length(A) - 1 do
    Diff := Diff or (A[I] xor B[I]);
  Result := Diff = 0;
end;

end.
