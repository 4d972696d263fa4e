fn main() {
    println!("rgw: under construction");
}
