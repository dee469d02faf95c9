import DelayboxChecked
import Testing

/// Numbers from outside made into integers, or nil: never a trap (issue 39).
@Suite(.timeLimit(.minutes(10))) struct CheckedTests {
    @Test func aConversionOutOfRangeOrNotFiniteIsNil() {
        for value in [Double.nan, .infinity, -.infinity, 1e19, -1e19, 9.3e18, 1e300, -1e300] {
            #expect(Checked.integer(value, in: Int64.min...Int64.max) == nil, "\(value)")
        }
        #expect(Checked.integer(9_223_372_036_854_774_784, in: Int64.min...Int64.max) == 9_223_372_036_854_774_784)
        #expect(Checked.integer(-9_223_372_036_854_775_808, in: Int64.min...Int64.max) == .min)
        #expect(Checked.scaled(1e16, by: 1_000, in: 0...Int64.max) == nil)
        #expect(Checked.scaled(2.5, by: 1_000, in: 1_000...900_000) == 2_500)
        #expect(Checked.scaled(0.9994, by: 1_000, in: 1_000...900_000) == nil, "999 ms: below the range")
        #expect(Checked.scaled(0.4, by: 1, in: 1...2) == nil)
        #expect(Checked.scaled(-0.5, by: 1, in: -1...1) == -1, "half away from zero")
    }

    @Test func arithmeticThatOverflowsIsNil() {
        #expect(Checked.sum(.max, 1) == nil)
        #expect(Checked.sum(.min, -1) == nil)
        #expect(Checked.difference(.min, 1) == nil)
        #expect(Checked.difference(0, .min) == nil)
        #expect(Checked.product(Int64(1) << 32, Int64(1) << 31) == nil)
        #expect(Checked.sum(2, 3) == 5 && Checked.difference(2, 3) == -1 && Checked.product(-4, 5) == -20)
    }
}
