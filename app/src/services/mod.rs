pub mod imports;
